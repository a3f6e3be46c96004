"""The extraction stage's structural patterns: the shapes of text between a figure, its
chip and its label. Word lists live in data/ (cues.tsv, chips.tsv ...); what stays here is
grammar that no lexicon row could say. Each pattern is ``re.VERBOSE`` with a comment per
part; possessive quantifiers (``*+``) keep the scans linear (tests/test_regex_linear.py).

Sections follow the modules that use them.
"""
from __future__ import annotations

import re

I, V = re.IGNORECASE, re.VERBOSE

# -- prose linking: a figure's label (figurelinks.py) ----------------------------------

# between a count and its label: "5120 个 CUDA 核心", "4 颗完整的 GPU", "第三代"
COUNT_GAP = re.compile(r"""
    ^ [\s的个颗独立完整块]*
    (?: GPU | gpu | 个 | 的 | 独立 | \s )*
    (?: 第.代                                              # 第三代
      | (?i: \d(?:st|nd|rd|th) | first | second | third | fourth | fifth )
        [\s-]* (?i: gen(?:eration)? )                     # 3rd gen, third-generation
    )?
    \s* $""", V)
# between a label and a bare number: "SM 数量为 108", "核心：6912"
LABEL_GAP = re.compile(r"""
    ^ [\s数量目为是有达到共计约近超过高达拥有具备集成配备采用提供的:：=]* $""", V)
# a label set to its figure: "FP32 ≈ 91.6", "带宽：约 2TB/s"
ASSIGN_GAP = re.compile(r"""
    (?<!\s) \s*+ [:：=≈] \s*+      # the sign, spaces around it
    [~约]? \s*+                    # "about"
    """, V)
# between a figure with a unit and the label right after it: "80GB 的 HBM3 显存", "900GB/s 双向"
TIGHT_GAP = re.compile(r"""
    ^ \s* (?: 的 | of | in | for | at | [（(] | ) \s*
    (?: HBM\w* | GDDR\w* | bi-?directional | 双向 | 单向 )?    # the memory type or direction
    \s* $""", I | V)
# what separates one figure from the next in a list: "148 TFLOPS FP16 / 296 TFLOPS"
SEPARATOR = re.compile(r"[/、，,;；]", V)
# "TF32 (single precision …)": a label, then brackets opening on its explanation
GLOSS_OPEN = re.compile(r"[(（] [^()（）]*+ $", V)
GLOSS_GAP = re.compile(r"\s*", V)  # between the label and its bracket
# labels joined into one: "FP16/BF16", "FP16 和 BF16"
KEYWORD_JOIN = re.compile(r"^ \s* (?: / | 、 | 和 | 与 | 及 | & | or | and ) \s* $", I | V)
# a bare 带宽 that says not which bandwidth
GENERIC_BANDWIDTH = re.compile(r"(?: 总 | 单向 | 双向 )? 带宽 | (?i: bandwidth )", V)
# a PCIe link's words: its bandwidth is no spec of the chip
LINK_WORDS = re.compile(r"x16 | x8 | 链路 | lanes?", I | V)

# -- prose linking: a figure's chip (figurelinks.py) ------------------------------------

# "分别为 15.7 和 19.5": the i-th figure to the i-th chip
RESPECTIVELY = re.compile(r"分别 | respectively", I | V)
# chips joined into one subject: "P100 和 V100", "A100/A800"
CHIP_JOIN = re.compile(r"^ \s* (?: 和 | 与 | 及 | 、 | / | , | ， | and | & ) \s* $", I | V)
# a pronoun for the sentence's first chip
PRONOUN_START = re.compile(r"""
    (?: ^ | [，,：:\s] )
    (?: 其 | 它 | 佢 | 该卡 | 该芯片 | 这款 | 此卡 | 本卡 ) (?! 他 | 它 )   # not 其他, 其它
    | \b (?: it | its | the\ card | this\ card | the\ chip ) \b""", I | V)
# the chips the previous sentence named, all at once: "三张卡都", "both"
GROUP_REF = re.compile(r"""
    (?: (?: [两三四五二2-5] | 这 | 这几 | 这些 ) \s*           # how many, or "these"
        (?: 张 | 款 | 颗 | 块 | 个 )? \s*                        # the measure word
        (?: 卡 | 显卡 | 芯片 | GPU | 型号 )
      | 它们 | 他们 | 两者 | 二者 ) \s*                         # or a plural pronoun
    (?: 都 | 均 | 皆 | 同样 | 同为 )                             # "all"
    | (?: both | all\ (?: three | four | of\ them ) | the\ three | the\ two ) \b""", I | V)
# between joined chips and their figure: "A 和 B 都", "则支持"
BOTH = re.compile(r"""
    都 | 均 | 同样 | 同为 | 皆 | both | all\s
    | ^ \s* (?: 则 )? (?: 支持 | 采用 | 升级到 | 搭载 | 配备 | 使用 )""", I | V)
# a gain said of several attributes at once: "FP16 与 FP8 都比 H200 高出 30%"
ALL_OF = re.compile(r"都 | 均 | 皆 | (?i: \b both \b | \b all \b )", V)
# between a chip and the figure it owns: "A100 的 80GB", "the H100's 3.35 TB/s"
POSSESSIVE = re.compile(r"^ \s* (?: 's | ’s | 的 | 嘅 | [（(] ) \s* (?: 每秒 \s* )? $", V)
# "H100 的 80GB、3.35TB/s": the chip's list
POSSESSIVE_LIST = re.compile(r"""
    ^ \s* (?: 's | ’s | 的 | 嘅 )
    [^，。；;,\n]{0,30} [、/和与及] \s* $""", V)
# a memory size of one MIG slice: "10GB 的实例", "10GB instances"
PER_INSTANCE = re.compile(r"""
    (?<!\s) \s*+ 的? \s*+ (?: MIG \s*+ )?
    (?: 实例 | 切片 | instances? | slices? )""", I | V)
PER_INSTANCE_BEFORE = re.compile(r"""
    (?: 每个 | 每一个 | 单个 ) (?: MIG )? 实例 \s* (?: 有 | 为 | 是 )? \s* $
    | (?: per | each ) \  (?: MIG\  )? instance \s* $""", I | V)
# the start of a clause that only goes on with a list: ", 170 W mean and 192 W maximum"
LIST_GAP = re.compile(r"""
    [\s,，、]*+                              # the break and spaces
    (?: (?: and | 和 | 及 | 以及 | 与 | 與 ) \s*+ )?""", V)
# a figure the sentence then calls wrong: "…1.08TB/s，那是算错了"
# (case matters only for the English words: scoping the flag to them keeps the scan quick)
REFUTED = re.compile(r"""
    算错 | 记错 | 是错的 | 这是错的 | 说错 | 并不正确 | 不正确 | 谣传 | 以讹传讹
    | (?i: is\ wrong | is\ incorrect | is\ a\ myth | is\ false )""", V)
# "640个CUDA核心(V100)": a chip in brackets right after the figure's label
ASIDE_CHIP = re.compile(r"(?: [^\s，。,;；()（）\d]{1,10}+ \s*+ )? [(（]", V)
CLOSE_AFTER = re.compile(r"[)）]", V)
# "(220 CU) for the MI250X"
FOR_CHIP = re.compile(r"[^,;.，。；\d]{0,24}? \b for \s++ (?: the \s++ )?", I | V)
# what opens a list line: "1. ", "- ", "**"
LIST_LEAD = frozenset(" \t\n*#>-•·0123456789.、)）")
# "2080亿(H100 的 2.6 倍)": a chip in an aside is not the figure's
ASIDE_OPEN = re.compile(r"[(（]", V)

# -- prose linking: comparisons and baselines (sentence.py, speeduplinks.py) ------------

# "前代", "the previous": words between a comparison word and its chip
PREDECESSOR_TAIL = re.compile(r"""
    (?: (?: 前代 | 上一代 | 前一代 | 上代 | 之前的? | 以前的? | 初代 | 第一代 )
        (?: 旗舰 | 产品 | 显卡 | 芯片 )?
      | the\s+previous | the | its )
    \s* $""", I | V)
# a comparison word right before a chip: "比 V100", "than the A100"
STRONG_COMPARE = re.compile(r"""
    (?: 比 | 相比 | 相较于? | 较 | 对比 | 超越 | 超过 | 胜过 | 优于 | 高于 | 低于 | 不及 | 不如
      | than | vs\.? | versus | compared\s+(?:to|with) | over )
    \s* $""", I | V)
# "比配备 HBM3 的 H100", "相较于采用 4nm 的 H100": a comparison word, a short modifier ending in 的
MODIFIED_COMPARE = re.compile(r"""
    (?: 比 | 相比 | 相较于? | 较 | 对比 | 对照 )
    [^，。,;；!?！？比较]{1,16}? 的 \s*+ (?: 初代 | 第一代 )? \s*+ $""", V)
# "而对比落后一代，配备 HBM2E 的 A100": a comparison word opening its clause, a modifier
# that may run over one comma, ending in 的
LEAD_MODIFIED_COMPARE = re.compile(r"""
    (?: ^ | (?<= [，,。；;：:\s] ) ) (?: 而 | 但 | 若 | 再 )?
    (?: 对比 | 相比于? | 相较于? | 比起 )
    [^，。,;；!?！？比较]{1,12}? [，,]? [^，。,;；!?！？比较]{1,12}? 的 \s*+ $""", V)
# "与 Pascal P100 GPU 相比": a capitalised family word before a chip, "GPU" after it
NAME_WORD_TAIL = re.compile(r"(?<![A-Za-z])[A-Z][a-z]{2,12}+\s*+$")
GPU_LEAD = re.compile(r"^\s*+GPU(?![A-Za-z])")
# "H100 升级版": the chip named is what the subject upgrades (its baseline)
UPGRADE_OF = re.compile(r"(?<!\s) \s*+ (?: 升级 | 增强 | 加强 | 改进 ) 版", V)
# "与上一代采用 GDDR6 的 T4 相比": with-word, a short modifier ending in 的 (a 相比 must follow the chip)
WITH_MODIFIED = re.compile(r"""
    (?: 与 | 和 | 跟 | 同 )
    [^，。,;；!?！？与和跟同]{1,16}? 的 \s*+ $""", V)
# "(前代3090: 10496个)": an aside naming the chip before as its predecessor
ASIDE_PREDECESSOR = re.compile(r"""
    [(（] \s*+
    (?: 前代 | 上代 | 上一代 | 前一代
      | (?i: previous (?: \s+gen(?:eration)? )? | last\s+gen(?:eration)? ) )
    \s*+ $""", V)
# a comparison word anywhere in a head
COMPARE_WORD = re.compile(r"比 | 相较 | 较 | 对比 | (?i: than | compared | versus | \bvs\b | \bover\b )", V)
# "与 H100", "和现有的 A100": a chip something is set beside
WITH = re.compile(r"""
    (?: 与 | 和 | 跟 | 同 | 像 | like | as )
    (?: 现阶段 | 目前 | 当前 | 现有 )? 的? \s* $""", I | V)
# "…相比", "…保持一致": what closes "与 X"
SAME_AS = re.compile(r"""
    (?<!\s) \s*+
    (?: 相比 | 相较 | 比较 | 对比 | 一样 | 相同 | 一致 | 保持一致 | 类似 | 持平 | 相当 | 差不多
      | 的规格相同 | 同系列 | 同一系列 | 同代 )""", V)
# a ratio right before a chip: "5 倍于", "68% faster than the"
AFTER_RATIO = re.compile(r"""
    (?: 倍 | × | \dx | times | % ) \s*
    (?: faster | more | higher | larger | greater )? \s*
    (?: than | that\ of | over | the | of )? \s*
    (?: the | an? )? \s* $""", I | V)
# "NVIDIA 的", "AMD's": a vendor between a comparison word and its chip
# (and a product-line word before a model: "与 RTX 4070 Ti 一致")
VENDOR_TAIL = re.compile(r"""
    (?: NVIDIA | Nvidia | AMD | Google | Huawei | 英伟达 | 华为 ) (?: 's | ’s | 的 )? \s*+
    (?: (?: GeForce | RTX | GTX | Radeon | Instinct | Tesla ) \s*+ )*+ $
    | (?: GeForce | RTX | GTX | Radeon | Instinct ) \s*+ $""", V)
# "from" of a from-to change: "带宽从 600GB/s 降到 400GB/s"
FROM = re.compile(r"(?: 从 | 由 ) \s* $", V)
# "是 V100 的 …": a weak comparison that needs 的 after the chip (OF_AFTER)
WEAK_COMPARE = re.compile(r"(?: 是 | 为 | 係 | 系 | 达到 | 达 | 相当于 | of ) \s* $", I | V)
# "是V100的": the chip is what is compared against
OF_AFTER = re.compile(r"""
    (?<!\s) \s*+ (?: GPU \s*+ )?
    (?: (?: 算力 | 性能 | 带宽 | 显存 | 容量 | 功耗 | 规格 ) \s*+ )?     # "V100 算力的"
    [的嘅]""", V)
# "(H100 的 2.6 倍)", "H100 的进化版": a chip something is measured against or derived from
RATIO_OF = re.compile(r"""
    (?<!\s) \s*+ (?: GPU \s*+ )? [的嘅] \s*+
    (?: [\d.]++ \s*+ (?: 倍 | % )
      | (?: 精简 | 简化 | 进化 | 升级 | 阉割 | 特供 | 缩水 | 增强 ) 版
      | 替代品 | 继任者 | 后继者 | 接班人 )""", V)
# "H100 的 2.6 倍": a ratio of that chip
OF_RATIO_GAP = re.compile(r"(?<!\s) \s*+ (?: GPU \s*+ )? [的嘅] \s*+", V)
# "the company's older", "its": an owner before a baseline chip
OWNER_TAIL = re.compile(r"""
    (?: the\s+company[’']s | its | their ) \s++
    (?: (?: older | previous | prior ) \s++ )? $""", I | V)
# "the company's Tesla V100": a product line before the chip
LINE_TAIL = re.compile(r"(?: Tesla | GeForce | Quadro | Instinct ) \s*+ $", V)
# "对比英伟达A100：FP16 312 TFLOPS…": a chip that heads what follows
LABEL_COLON = re.compile(r"(?<!\s) \s*+ [:：] | ^ [:：]", V)
# comma-like marks that delimit clauses
CLAUSE_PUNCTUATION = re.compile(r"[，,；;：:]", V)

# -- prose linking: speed-ups (speeduplinks.py) -----------------------------------------

# the metric word right after a ratio: "2.4 times the capacity", "20x increase in"
METRIC_AFTER = re.compile(r"""
    ^ \s*+
    (?: (?: increase | improvement | boost | gain | jump ) \s++ in \s++ )?
    (?: the | its | their | in | of | on | 的 | 更高的 | 更大的 )?
    \s*+ $""", I | V)
# "30% of the A100's memory bandwidth": the share's chip, between the figure and the metric
OF_CHIP_GAP = re.compile(r"^ \s*+ of \s++ (?: the \s++ )? $", I | V)
POSSESSIVE_GAP = re.compile(r"^ (?: ['’] s )? \s*+ $", V)
# a gain stated without its baseline: "3 倍的性能提升", "5x faster", "翻倍"
IMPLICIT_GAIN = re.compile(r"""
    (?<![\d.]) [\d.]++ \s*+ 倍 的? (?: 性能 )? 提升
    | (?<![\d.]) [\d.]++ \s*+ (?: x | × | times ) \s++
      (?: faster | higher | greater | more | the\ performance )
    | (?: doubles | triples | doubled | tripled ) \s++ the
    | 加倍 | 翻倍 | 翻了?一?番""", I | V)
# "性能提高20倍"
GAIN_BEFORE = re.compile(r"(?: 提升 | 提高 | 增加 | 加快 | 增长 ) 了? \s*+ (?: 约为? | 近 | 高达 | 可达 | 达到? | 为 | 至 )? \s*+ $", V)
# "2.5 times the Volta", "3x Ampere's": the word after a ratio (an architecture, if listed)
ARCH_AFTER = re.compile(r"(?<!\s)\s*+(?:the\s++|that\s++of\s++(?:the\s++)?)?([A-Za-z]++)")
# "Volta 架构", "Hopper GPU": an architecture named as the baseline
ARCH_SUFFIX = re.compile(r"""
    架构
    | (?<=[A-Za-z]) (?: \s++ (?: GPU | generation ) | \s*+ architecture )""", I | V)
# "是它的 1.5 倍": the pronoun is the sentence's first subject
PRONOUN_BASELINE = re.compile(r"""
    (?: 是 | 为 | 係 | 比 ) \s*
    (?: 它 | 其 | 佢 | this | it ) \s*
    (?: 的 | 嘅 | 's )?""", I | V)
# "20x increase in …"
INCREASE_IN = re.compile(r"^ \s*+ (?: increase | improvement | boost | jump | gain ) \s++ in \s", I | V)
# "8x A100": a count of cards, not a ratio
CARDS_AFTER = re.compile(r"\s? (?: [A-Z] | \d )", V)
# a 'total' word right before a gain: "总共增加了 12 倍" (the overall gain, no system total)
GAIN_LEAD = re.compile(r"(?<!\s) \s*+ (?: 增加 | 提升 | 提高 | 增长 | 加快 | 快 | increase | improvement | gain )", I | V)
# "与 V100 相比，": a baseline framing the rest of the sentence
FRAMING_TAIL = re.compile(r"(?<!\s) \s*+ (?: GPU \s*+ )? (?: 相比 | 相较 | 比较 | 对比 ) (?: 之下 | 而言 )? \s*+ [，,]", V)
# "FP32 的性能": between a precision and the performance word it owns
OWN_WORD = re.compile(r"\s*+ (?: 的 \s*+ )?", V)
# "TF32 (single precision …)": between a keyword and one in parentheses glossing it
GLOSS = re.compile(r"(?<!\s) \s*+ [(（] \s*+", V)
