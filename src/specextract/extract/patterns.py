r"""The extraction stage's structural patterns, in one place: the shapes of text around a
figure, its chip and its label. Word lists live in data/ (cues.tsv, chips.tsv ...); what
stays here is grammar that no lexicon row could say.

One section per module, in the order the pipeline uses them: sentences and lines
(``segment``), chip names (``mentions``, ``chipnames``), figures (``quantities``), what is
no claim (``nonclaims``), relabelling (``relabel``), prose linking (``figurelinks``,
``sentence``, ``speeduplinks``), the whole document (``claims``, ``blocks``), tables
(``tables``, ``linetables``, ``rowtables``, ``gluedcells``, ``cells``, ``comparecol``),
speed-up values (``comparisons``).

Names are unique in this file: where two modules use the same name for different
patterns, each is prefixed with its module here (``SEGMENT_WIDE_GAP``,
``TABLE_WIDE_GAP``) and the module imports it under its own name. Patterns built at run
time from the lexicon (units, chip names, cue words, variants) stay where they are built;
the fragments they are built from are here (``ARABIC``, ``SUFFIX``, ...).

Every pattern here is compiled by :func:`specextract.regex_screens.compile_screened`:
where the regex engine would try it in full at every position (an alternation under
re.IGNORECASE, a look-behind first), a look-ahead on the characters a match can start with
goes in front (the same matches, found faster). The patterns matched at one place once
per figure or chip have their first characters beside them (the last section,
``*_STARTS``), for :func:`match_at`.

Long patterns are written with ``re.VERBOSE`` (``V``), one part per line with its comment;
there, a literal space is ``\ `` (or ``[ ]``) and ``#`` is ``\#``. Possessive quantifiers
(``*+``) keep the scans linear (tests/test_regex_linear.py). Fragments that go into other
patterns are written without VERBOSE.
"""
from __future__ import annotations

import re
import string

from ..regex_screens import compile_screened, first_characters

I, V = re.IGNORECASE, re.VERBOSE

# vendor and brand words that may stand before a chip name (a fragment)
BRAND_WORDS = "NVIDIA|Nvidia|AMD|GeForce|Tesla|Quadro|Instinct|Radeon|英伟达|英偉達|輝達|华为|華為|昇腾|昇騰"

# === segment: sentences, clauses, line layouts ==========================================

# Each sentence and clause pattern starts with a look-ahead on the characters a match can
# start with, so that most positions fail one set test instead of trying every alternative.
# A "?" run into a digit or a Latin letter is a hole left by a lost character ("约?1.8 倍",
# "RTX?3090?Ti"), not a question mark.
SENTENCE_END = compile_screened(r"""
    (?=[。！？!?；;\n.])                         # only where an end can be
    (?: (?: [。！？!；;\n] | \?(?![A-Za-z0-9]) )++    # a run of ends ("?" as above)
      | (?<=[A-Za-z0-9%)\]])\.(?=\s+[A-Z\"“(]|\s*$) )   # a full stop before a capital or the end ("MI300X.")
    """, re.VERBOSE)
SEGMENT_CLAUSE_BREAK = compile_screened(r"""
    (?=[，；;,\s而但])                    # only where a break can be
    (?: [，；;]                            # Chinese comma, semicolons
      | ,(?!\d{3}(?!\d))                   # a comma, not a thousands separator
      | (?<=[a-z\s]),(?=\s)                # an English comma before a blank
      | \s(?:while|whereas|but|and\ the)\s # English conjunctions
      | 而|但 )                            # Chinese ones
    """, re.VERBOSE)
SOFT_BREAK = compile_screened(r"[，,、：:\s]")          # where an over-long sentence may be cut

SEGMENT_WIDE_GAP = compile_screened(r"\|| ?\t|\S {2,}\S|\u3000")   # a column gap in a line
LINE_SENTENCE_END = compile_screened(r"[。！？!?；;]|[.](?:\s|$)")
SEGMENT_CLAUSE_MARK = compile_screened(r"[，,、]")
LIST_MARK = compile_screened(r"""
    ^\s*+
    (?: [-*•·]            # a bullet
      | \d+[.)、]          # "1." "1)" "1、"
      | [（(]\d+[)）] )     # "(1)"
    \s++
    """, re.VERBOSE)

# === mentions: chip names and what stands beside them ===================================

SYSTEM_BEFORE = compile_screened(r"""
    (?: DGX|SuperPOD|ExaPOD|集群|超算|超级计算机           # a system or a cluster
      | (?:[2-9]|八|四|两)\s*(?:卡|-GPU|GPU|x|路|颗|张|块)   # "8-GPU", "八卡"
        \s*(?:HGX|DGX)?                                  # "8x HGX"
      | (?<![第\d.])(?:[2-9]|[1-9]\d{1,2}|二|两|兩|三|四|六|八|十六)   # "两个 B200", "72 颗 B200":
        \s*(?:个|個|颗|顆|张|張|块|塊)                      # chips counted, a system's parts
      | (?<![A-Za-z])(?:two|four|eight|dual|twin)\s )     # "two B200 GPUs"
    \s*$
    """, re.IGNORECASE | re.VERBOSE)
SYSTEM_AFTER = compile_screened(r"^\s*(?:NVL(?:72|36|576)|SuperPOD|集群|超算|服务器|Station|8-GPU|八卡|8卡|rack(?![a-z])|机柜|機櫃)",
                                re.IGNORECASE)
# "GB200 Grace Blackwell Superchip", "GB200 超级芯片": the module, not one of its GPUs
SUPERCHIP_AFTER = compile_screened(r"(?<!\s)\s*+(?:Grace\s++Blackwell\s++(?:Ultra\s++)?)?(?:Superchip|超级芯片|超級晶片|超級芯片|超级晶片)",
                                   re.IGNORECASE)
# "The H200 (codename: GH200)": a chip name given as another chip's code name
CODENAME_GAP = compile_screened(r"""
    (?<!\s) \s*+ [(（]? \s*+
    (?: (?i:code\s?name) | 核心代号 | 核心代號 | 代号 | 代號 ) \s*+ [:：]? \s*+ (?: 为 | 為 | 是 )? \s*+
    """, re.VERBOSE)
# "中国特供版Gaudi 3", "China-specific Gaudi 3", "Gaudi 3 特供版": a special edition of the
# chip (its own figures, which the reference's rows of the chip are not)
EDITION_BEFORE = compile_screened(r"""
    (?: (?:中国|中國|对华|對華)? (?:特供|特规|特規|专供|專供) 版? | (?i:China[-\s](?:specific|only|edition)) )
    \s? (?:版本?)? $""", re.VERBOSE)
# "原版OAM卡", "the original Gaudi 3": what a special edition was cut from
ORIGINAL_EDITION = compile_screened(r"原版|原裝版|原装版|標準版|标准版|国际版|國際版|(?i:(?<![a-z])(?:original|standard|global)\s)")
# "完整的 GA100", "完整版的GH100", "the full GH100", "a fully enabled GA100": a die named as the
# whole chip, before the product's units are cut (see codebook.FULL_DIE_VARIANT)
FULL_DIE_BEFORE = compile_screened(r"""
    (?: 完整 (?:版本?|规格|規格)? 的? | 完全体的? | 完全體的? | 全规格的? | 全規格的?
      | (?i: (?<![a-z]) (?: full (?:[-\s]fat)? | fully[-\s]enabled | complete | uncut ) ) )
    \s? (?:的)? (?:核心|晶片|芯片)? \s? $""", re.VERBOSE)
EDITION_AFTER = compile_screened(r"(?:中国|中國)?(?:特供|特规|特規|专供|專供)版|(?i:\s?China[-\s](?:edition|version))")
VARIANT_SEP = compile_screened(r"[\s\-_/]{0,2}")                   # between a chip and its variant
NOT_A_CHIP_AFTER = compile_screened(r"(?<!\s)\s*+(?:缓存|cache|Cache|快取|高速缓存)")   # "L2 缓存"
ALIAS_SEPARATORS = compile_screened(r"[\s\-]")                     # dropped from an alias's key

# === chipnames: model names of chip families ============================================

# A model suffix, as a fragment of the families' patterns: "RTX 4090 Ti", "MI300X".
SUFFIX = r"(?:[\s\-]?(?:Ti|TI|Super|SUPER|Ultra|Pro|Max|Plus|XTX|XT|GRE|Ada)(?![a-z]))"
# a series, a family or an architecture is no model ("RTX 40系列", "MI300 family", "Rubin架构")
NOT_AFTER = compile_screened(r"""
    (?<!\s)\s*+
    (?: 系列|系(?![统統])|家族|架构|架構|平台                     # "系列", "架构"
      | (?i:series|family|architecture|platform)(?![a-z]) )     # "series", "family"
    """, re.VERBOSE)
# "the B200/B300 series": chips named as a product line (not a table's header; a row label
# such as "架构" may follow a real header directly, so only series words count here)
SERIES_AFTER = compile_screened(r"(?<!\s)\s*+(?:系列|家族|(?i:series|family)(?![a-z]))")
GLUED_SUFFIX = compile_screened(r"""
      (?<=[0-9])(?=(?i:Ti|Super|Ultra|Pro|Max|Plus|Gen|Elite|Bionic)(?![a-z]))   # "4090Ti"
    | (?<=Gen)(?=[0-9])                                                      # "Gen5"
    | (?<=[0-9]{4})(?=D$)                                                    # "4090D"
    """, re.VERBOSE)

# === quantities: figures with their units ===============================================

# Fragments of the quantity pattern (built with the lexicon's units, quantities.Units).
ARABIC = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
CJK_NUM = r"[零〇一二两三四五六七八九十百千]+"
WORD_NUM = r"(?i:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty)"
QUANTITY_MAGNITUDE = (r"\s?(?:千万亿|万亿|千亿|百亿|千万|百万|万|亿|兆(?!字节|赫|瓦)|千(?![兆克米]))"
                      r"|\s(?i:thousand|million|billion|trillion)\b|(?:bn|B)(?=\s*(?:transistors|个?晶体管|\||\n|$))")
FLOP_WORDS = r"(?P<flopmag>千万亿|万亿|兆|亿)次(?:的)?(?:浮点|整数)?(?:运算|计算|操作)?(?:每秒)?"
# Ordinals: a generation, a PCIe version (quantities.ordinal_pattern joins them).
ORDINAL_PATTERNS = (
    r"第\s*(?P<ord>[一二三四五六七八九十]|\d{1,2})\s*代",
    r"(?<![A-Za-z])(?P<ordw>(?i:first|second|third|fourth|fifth|sixth|1st|2nd|3rd|4th|5th|6th))[\s-]*(?i:gen(?:eration)?)\b",
    r"(?<![\d.])(?P<ordd>[1-6])\s*代(?=\s*(?:Tensor|张量|NVLink|NVlink))",
    r"PCI-?[Ee](?:xpress)?\s*(?:(?i:Gen)\s*)?(?P<pcie>[1-6])(?:\.0)?(?![\d.])",
    r"PCI-?[Ee]\s*(?:第)?(?P<pciecjk>[一二三四五六])代",
    r"(?<![A-Za-z])(?i:Gen)\s?(?P<gen>[1-6])(?![\d.])",
)
RATIO_WORDS = compile_screened(r"""
    (?=[tTdDqQ翻加])                                      # only where one can start
    (?: (?<![A-Za-z])
        (?P<w>(?i:twice|double[ds]?|triple[ds]?|quadruple[ds]?))   # "twice", "tripled"
        (?![A-Za-z])
      | 翻(?:了)?(?:一)?(?:番|倍)                            # "翻了一番", "翻倍"
      | 加倍 )
    """, re.VERBOSE)
# "每秒3.35TB", "每秒传输64GB的数据": bytes moved per second
PER_SECOND_BEFORE = compile_screened(r"每秒钟?(?:可以|能够?|可)?(?:传输|传送|读写|读取|交换|搬运)?(?:约|高达|达到?|超过)?\s*+.?$")
RANGE_AFTER = compile_screened(r"(?<!\s)\s*+(?:-{1,2}+|–|—|~|～|〜|到|至|to)\s*+(?:\d|[零一二两三四五六七八九十])")
RANGE_JOIN = compile_screened(r"(?<!\s)\s*+(?:-{1,2}+|–|—|~|～|〜|到|至|to)\s*+$")
# Between two figures that share the unit written after the second ("16 | 32 GB").
SHARED_UNIT_BEFORE = compile_screened(r"^[ \t]*+\*?[ \t]*+(?:\||/|、|和|与|及|(?i:and|or))[ \t]*+$")
SHARED_UNIT_AFTER = compile_screened(r"^\*?[ \t]*+[(（][ \t]*+$")
QUANTITY_PAIR_JOIN = compile_screened(r"^[ \t]*+\*?[ \t]*+[|/][ \t]*+$")
NEWLINE = compile_screened("\n")                 # line ends, to tell a pipe-table row
FOUNDRY = r"(?:TSMC|台积电|台積電|Samsung|三星)[\s']*+(?:s\s++)?+"
NODE_WORD = r"\s*+(?:工艺|工藝|制程|製程|(?i:process|node))"
FOUNDRY_NODE = compile_screened(  # "TSMC 4N", "台积电 N4P", "4NP 工艺", "N5 制程"
    rf"(?=[TS台三3-9N])(?:{FOUNDRY}(?P<n>[3-9])(?:NP|N)(?![a-z0-9])|{FOUNDRY}N(?P<m>[3-9])[PEX]?(?![A-Za-z0-9])"
    rf"|(?<![A-Za-z0-9])(?P<k>[3-9])NP?(?={NODE_WORD})|(?<![A-Za-z0-9])N(?P<j>[3-9])[PEX]?(?={NODE_WORD}))")  # behind a look-ahead on first characters

# === nonclaims: figures that are no spec claim ==========================================

DIFFERENCE_SIGN = compile_screened(r"(?<![\w.])[+＋]\s*+$")              # "+1100 MHz"
CACHE_AFTER = compile_screened(r"^\s*+(?:的\s*+)?(?:(?:高速|一级|一級|三级|三級|L1|L3|Infinity)\s*+)?(?:缓存|緩存|快取|cache)",
                               re.IGNORECASE)
GENERIC_CHIPS_AFTER = compile_screened(r"""
    ^\s*+(?:(?:以上|及以上)\s*+)?         # "以上"
    的\s*+(?:芯片|GPU|产品|显卡|加速器|处理器)   # "的芯片": chips in general
    """, re.VERBOSE)
WHOLE_OF_PART = compile_screened(r"""
    ^[^，。,;；\d]{0,12}?                  # a few words in the same clause
    (?:中的|之中的?|里的)\s*+              # "中的"
    (?:\d|[一二两三四五六七八九十])         # then the part's own figure
    """, re.VERBOSE)
# "由 8960 个芯片互连，总带宽超过 400 Tb/s", "links 256 chips … a total bandwidth of": a
# total over many chips, no chip's figure (the count of chips, then a total word before it)
CHIPS_COUNTED = compile_screened(r"""
    (?<![A-Za-z\d.,_-])                                              # not "V100 GPU"
    (?: (?:[2-9]|[1-9][\d,]{1,6}) \s*+ (?:个|個|颗|顆|张|張|块|塊|枚|片)? \s*+   # "8960 个", "256"
      | (?:两|兩|四|八|十六|数百|数千|上千|上万) \s*+ (?:个|個|颗|顆|张|張|块|塊) \s*+ )
    (?: 芯片|晶片|GPU|NPU|TPU|加速卡|加速器|卡                              # ... chips
      | (?i: chips | GPUs | NPUs | TPUs | accelerators ) )
    """, re.VERBOSE)
TOTAL_BEFORE = compile_screened(r"""
    (?: 总(?!线|裁|部|结|之|体|的来说) | 總(?!線|裁|部|結|之|體) | 合计 | 合計 | 共计 | 共計 | 累计 | 累計
      | (?<![A-Za-z]) (?i: total | aggregate | combined ) (?![A-Za-z]) )
    """, re.VERBOSE)
# "每瓦性能 29.3 TFLOPS", "performance per watt of 29.3 TFLOPS": an efficiency, not compute
PER_WATT_BEFORE = compile_screened(r"(?:每瓦|每W|能效比?|(?i:per\s++watt|/\s*+W(?![A-Za-z])))")
VAGUE_BEFORE = compile_screened(r"(?:上|数|几|好几|成)$")                  # "上百", "数百"
CAPABILITY_BEFORE = compile_screened(r"(?<![A-Za-z])(?:SM|sm)_?+$")       # "SM89", "sm_90"
CLAUSE_END = compile_screened(r"[，。,;；\n]")
THRESHOLD_BEFORE = compile_screened(r"(?:超过|超出|大于|高于|高过|不低于|达到或超过)\s*+$")
LIMIT_BEFORE = compile_screened(r"(?:限制在|限定在|限制为|限于)\s*+(?:每秒\s*+)?$")
AND_ABOVE_AFTER = compile_screened(r"""
    ^\s*+
    (?: 及以上|以上|或以上
      | (?i: or\s++(?:more|above) | and\s++above ) )
    """, re.VERBOSE)

COMPARED_GAP = compile_screened(r"比[^，。,;；比]{1,30}?(?<![最至更很许許])(?:多出?|少|高出?|低)\s*+(?:了\s*+)?"
                                r"(?:约|約|近|超过|超過)?\s*+$")  # "比 H100 的 800 亿多 1280 亿"
OPENING = r"(?:<\w{1,4}>|[\W_]){0,12}+"  # list marks, bullets, leftover tags before a sentence
MEMORY_WORD = compile_screened(r"HBM|GDDR|(?<![A-Za-z])memory|VRAM|显存|顯存|内存|記憶體|记忆体", re.IGNORECASE)
CORE_CLOCK_WORD = compile_screened(r"boost|加速|核心|(?<![A-Za-z])(?:core|GPU|shader|graphics|engine|game)"
                                   r"|游戏频率|遊戲頻率", re.IGNORECASE)
EACH_WORD = compile_screened(r"(?<![A-Za-z])(?i:each)(?![A-Za-z])")
EACH_PART = compile_screened(r"(?<![a-z])(?:two|three|four|eight|\d)\s++(?:[a-z]++\s++)?"
                             r"(?:chips|dies|chiplets|gcds|xcds|tiles)(?![a-z])[^.;。；]{0,60}?"
                             r"(?<![a-z])each(?![a-z])[^.;。；]{0,40}$", re.IGNORECASE)
ARCHITECTURE_SUBJECT = compile_screened(r"(?:该|該|此|这一|這一|这个|這個)\s*+架[构構]|(?i:(?<![a-z])(?:this|that)\s++architecture)"
                                        r"|架[构構]\s*+[A-Z][A-Za-z]++\s*+[,，]\s*+(?:其|它)")
# "each" as a pronoun for parts counted before it: "7 instances, each with 10GB", "…given to each"
EACH_OF_THEM = compile_screened(r"(?<![A-Za-z])(?i:each)(?=\s*+(?:[,，]|(?i:with|having|has|gets?|getting|offering|"
                                r"providing|carrying|of\s++(?:them|which))(?![A-Za-z])))"
                                r"|(?:每个|每個|各自?)\s*+(?:有|拥有|擁有|配备|配備|分配|分得|可用)?\s*+$")
EACH_OF_THEM_AFTER = compile_screened(r"[^,.;:!?()\n，。；：！？（）]{0,40}?(?<![A-Za-z])(?i:to|for)\s++(?i:each)"
                                      r"(?!\s*+[A-Za-z])")
EACH_ONE = compile_screened(r"(?:每|单)\s*+(?:一\s*+)?(?:个|個|颗|顆|块|塊|组|組)\s*+(?:的\s*+)?"
                            r"(?:大小|容量|带宽|頻寬|频宽)?\s*+(?:为|為|是|有|达|達)?\s*+$")

# === relabel: a figure's label read again ===============================================

RELABEL_LABEL_GAP = compile_screened(r"[\s:：=为是有达约]*+(?:(?i:of|at|is)\s++)?")   # ("base frequency of 1110MHz")
# a ratio written with a colon ("(4:1)", "1：32"): its numbers are no figures
RATIO_NOTATION_NEXT = compile_screened(r"(?<![ \t])[ \t]*+[:：][ \t]*+\d++(?:\.\d++)?(?![\w.])")
RATIO_NOTATION_PREVIOUS = compile_screened(r"(?<![\w.])\d++(?:\.\d++)?[ \t]*+[:：][ \t]*+$")
# between a figure and the keyword it counts ("21,760 个计算单元", "64 compute units")
FIGURE_KEYWORD_GAP = compile_screened(r"\s*+[个颗组]?\s*+")
RELABEL_COUNT_GAP = compile_screened(r"[ \t]*+[个颗组]?[ \t]*+(?:(?:第.|\d\s?)代[ \t]*+)?")  # "76 个第三代 RT Core" (one line)
RELABEL_CLAUSE_BREAK = compile_screened(r"[，,；;。！？!?\n]|\.\s")
COMPARE_START = compile_screened(r"""
    (?<!\s)\s*+
    (?: 低于|高于|不及|不如|超过|多于|少于
      | (?i:lower\ than|higher\ than|less\ than|more\ than|than|compared) )
    """, re.VERBOSE)
NOUN_AFTER = compile_screened(r"(?<!\s)\s*+[A-Za-z\u3400-\u9fff]")
TENSOR_AFTER = compile_screened(r"(?<!\s)\s*+(?:Tensor|张量|張量|TC(?![A-Za-z]))", re.IGNORECASE)

# === prose linking: a figure's label (figurelinks.py) ===================================

# between a count and its label: "5120 个 CUDA 核心", "4 颗完整的 GPU", "第三代"
COUNT_GAP = compile_screened(r"""
    ^ [\s的个颗独立完整块]*
    (?: GPU | gpu | 个 | 的 | 独立 | \s )*
    (?: 第.代                                              # 第三代
      | \d \s? 代                                          # 4 代
      | (?i: \d(?:st|nd|rd|th) | first | second | third | fourth | fifth )
        [\s-]* (?i: gen(?:eration)? )                     # 3rd gen, third-generation
    )?
    \s* $""", V)
# between a label and a bare number: "SM 数量为 108", "核心：6912"
LABEL_GAP = compile_screened(r"""
    ^ [\s数量目为是有达到共计约近超过高达拥有具备集成配备采用提供的:：=]* $""", V)
# a label set to its figure: "FP32 ≈ 91.6", "带宽：约 2TB/s"
ASSIGN_GAP = compile_screened(r"""
    (?<!\s) \s*+ [:：=≈] \s*+      # the sign, spaces around it
    [~约]? \s*+                    # "about"
    """, V)
# between a figure with a unit and the label right after it: "80GB 的 HBM3 显存", "900GB/s 双向"
# "394 TOPS (also quoted as TFLOPS) at INT8": a bracketed aside between a figure and its label
ASIDE_AFTER = compile_screened(r"(?<!\s)\s*+(?:\([^()\n]{1,40}\)|（[^（）\n]{1,40}）)")
TIGHT_GAP = compile_screened(r"""
    ^ \s* (?: 的 | of | in | for | at | [（(] | ) \s*
    (?: HBM\w* | GDDR\w* | bi-?directional | 双向 | 单向 )?    # the memory type or direction
    \s* $""", I | V)
# what separates one figure from the next in a list: "148 TFLOPS FP16 / 296 TFLOPS"
SEPARATOR = compile_screened(r"[/、，,;；]", V)
# "TF32 (single precision …)": a label, then brackets opening on its explanation
GLOSS_OPEN = compile_screened(r"[(（] [^()（）]*+ $", V)
GLOSS_GAP = compile_screened(r"\s*", V)  # between the label and its bracket
# labels joined into one: "FP16/BF16", "FP16 和 BF16"
KEYWORD_JOIN = compile_screened(r"^ \s* (?: / | 、 | 和 | 与 | 及 | & | or | and ) \s* $", I | V)
# a bare 带宽 that says not which bandwidth
GENERIC_BANDWIDTH = compile_screened(r"(?: 总 | 单向 | 双向 )? 带宽 | (?i: bandwidth )", V)
# a PCIe link's words: its bandwidth is no spec of the chip
LINK_WORDS = compile_screened(r"x16 | x8 | 链路 | lanes?", I | V)

# === prose linking: a figure's chip (figurelinks.py) ====================================

# "分别为 15.7 和 19.5": the i-th figure to the i-th chip
RESPECTIVELY = compile_screened(r"分别 | respectively", I | V)
# between the two figures of an "a vs b" pair: "(1.4 kW vs 1.0 kW)", "141GB 对 80GB"
VERSUS_JOIN = compile_screened(r"(?<!\s) \s*+ (?: vs\.? | versus | 对比? | 對比? ) \s*+", I | V)
# between the last of a list of precisions and the generic head word they label ("FP16算力",
# "FP32、FP16精度下的算力", "FP32 和 FP16 的算力")
LABEL_HEAD_GAP = compile_screened(r"(?<!\s)\s*+(?:精度|格式)?(?:下|上)?的?\s*+|\s*+")
# between the attribute labels a 分别 / respectively pairs with figures: "FP64、FP32和FP16",
# "FP64, FP32, and FP16" (not "，": "…的算力，BF16 与 FP8 分别…" starts a new list)
LABEL_LIST_JOIN = compile_screened(r"^ \s*+ (?: / | 、 | 和 | 与 | 及 | & | , (?: \s*+ (?: or | and ) )? | or | and ) \s*+ $", I | V)
# between the figures a trailing "respectively" pairs: "9.7, 19.5 and 78 TFLOPS"
FIGURE_LIST_JOIN = compile_screened(r"(?<!\s) \s*+ (?: 、 | 和 | 与 | 及 | / | ， | , (?: \s*+ (?: and | or ) )? | and | or ) \s*+", I | V)
# from the last of those figures to the word: "… 78 TFLOPS (of FP32) respectively", "…
# 40GB for the V100 and A100, respectively"
TRAILING_GAP = compile_screened(r"[^,.;:，。；：!?！？]{0,40}+ (?: [,，] \s*+ )?", V)
# chips joined into one subject: "P100 和 V100", "A100/A800"
CHIP_JOIN = compile_screened(r"^ \s* (?: 和 | 与 | 及 | 、 | / | , | ， | and | & ) \s* $", I | V)
# a pronoun for the sentence's first chip
PRONOUN_START = compile_screened(r"""
    (?: ^ | [，,：:\s] )
    (?: 其 | 它 | 佢 | 该卡 | 该芯片 | 这款 | 此卡 | 本卡 ) (?! 他 | 它 )   # not 其他, 其它
    | \b (?: it | its | the\ card | this\ card | the\ chip ) \b""", I | V)
# a clause that concedes: "虽然 H100 仍是主力，…", "While the H100 ships, …"
CONCESSIVE_OPEN = compile_screened(r"(?:虽然|虽说|尽管|雖然|雖說|儘管|(?i:while|although|though|whereas)(?![A-Za-z]))")
# the chips the previous sentence named, all at once: "三张卡都", "both"
GROUP_REF = compile_screened(r"""
    (?: (?: [两三四五二2-5] | 这 | 这几 | 这些 ) \s*           # how many, or "these"
        (?: 张 | 款 | 颗 | 块 | 个 )? \s*                        # the measure word
        (?: 卡 | 显卡 | 芯片 | GPU | 型号 )
      | 它们 | 他们 | 两者 | 二者 ) \s*                         # or a plural pronoun
    (?: 都 | 均 | 皆 | 同样 | 同为 )                             # "all"
    | (?: both | all\ (?: three | four | of\ them ) | the\ three | the\ two ) \b""", I | V)
# between joined chips and their figure: "A 和 B 都", "则支持"
BOTH = compile_screened(r"""
    都 | 均 | 同样 | 同为 | 皆 | both | all\s
    | ^ \s* (?: 则 )? (?: 支持 | 采用 | 升级到 | 搭载 | 配备 | 使用 )""", I | V)
# a gain said of several attributes at once: "FP16 与 FP8 都比 H200 高出 30%"
ALL_OF = compile_screened(r"都 | 均 | 皆 | (?i: \b both \b | \b all \b )", V)
# between a chip and the figure it owns: "A100 的 80GB", "the H100's 3.35 TB/s"
POSSESSIVE = compile_screened(r"^ \s* (?: 's | ’s | 的 | 嘅 | [（(] ) \s* (?: 每秒 \s* )? $", V)
# "H100 的 80GB、3.35TB/s": the chip's list
POSSESSIVE_LIST = compile_screened(r"""
    ^ \s* (?: 's | ’s | 的 | 嘅 )
    [^，。；;,\n]{0,30} [、/和与及] \s* $""", V)
# a memory size of one MIG slice: "10GB 的实例", "10GB instances"
PER_INSTANCE = compile_screened(r"""
    (?<!\s) \s*+ 的? \s*+ (?: MIG \s*+ )?
    (?: 实例 | 切片 | instances? | slices? )""", I | V)
PER_INSTANCE_BEFORE = compile_screened(r"""
    (?: 每个 | 每一个 | 单个 ) (?: MIG )? 实例 \s* (?: 有 | 为 | 是 )? \s* $
    | (?: per | each ) \  (?: MIG\  )? instance \s* $""", I | V)
# the start of a clause that only goes on with a list: ", 170 W mean and 192 W maximum"
LIST_GAP = compile_screened(r"""
    [\s,，、]*+                              # the break and spaces
    (?: (?: and | 和 | 及 | 以及 | 与 | 與 ) \s*+ )?""", V)
# a figure the sentence then calls wrong: "…1.08TB/s，那是算错了"
# (case matters only for the English words: scoping the flag to them keeps the scan quick)
REFUTED = compile_screened(r"""
    算错 | 记错 | 是错的 | 这是错的 | 说错 | 并不正确 | 不正确 | 谣传 | 以讹传讹
    | (?i: is\ wrong | is\ incorrect | is\ a\ myth | is\ false )""", V)
# "640个CUDA核心(V100)": a chip in brackets right after the figure's label
ASIDE_CHIP = compile_screened(r"(?: [^\s，。,;；()（）\d]{1,10}+ \s*+ )? [(（]", V)
CLOSE_AFTER = compile_screened(r"[)）]", V)
# "(220 CU) for the MI250X"
FOR_CHIP = compile_screened(r"[^,;.，。；\d]{0,24}? \b for \s++ (?: the \s++ )?", I | V)
# "9.0 PF on B200": a figure given on the chip named right after it
ON_CHIP = compile_screened(r"(?<!\s) \s++ on \s++ (?: the \s++ )?", I | V)
# "600W 的 RTX 5090": a figure that describes the chip named right after it
DESCRIBES_CHIP = compile_screened(rf"""
    (?<!\s)\s*+ (?: (?: 显存 | 顯存 | 内存 | 內存 | 記憶體 | 功耗 | 容量 ) \s*+ )?   # "24GB显存的 RTX 4090 D"
    的 \s*+
    (?: (?: {BRAND_WORDS} | Intel|RTX|GTX|RX|Gaudi ) \s*+ )*+    # vendor, brand and line words
    """, re.VERBOSE)
# what opens a list line: "1. ", "- ", "**"
LIST_LEAD = frozenset(" \t\n*#>-•·0123456789.、)）")
# "2080亿(H100 的 2.6 倍)": a chip in an aside is not the figure's
ASIDE_OPEN = compile_screened(r"[(（]", V)

# === prose linking: comparisons and baselines (sentence.py, speeduplinks.py) ============

# "前代", "the previous": words between a comparison word and its chip
PREDECESSOR_TAIL = compile_screened(r"""
    (?: (?: 前代 | 上一代 | 前一代 | 上代 | 之前的? | 以前的? | 初代 | 第一代 )
        (?: 旗舰 | 产品 | 显卡 | 芯片 )?
      | the\s+previous | the | its )
    \s* $""", I | V)
# a rival, named as what the subject is set against: "直接对标 B200", "剑指 H100", "rivals the B200"
RIVAL_WORDS = r"对标 | 對標 | 剑指 | 劍指 | rivals?"
# a comparison word right before a chip: "比 V100", "than the A100"
STRONG_COMPARE = compile_screened(rf"""
    (?: 比 | 相比 | 相较于? | 较 | 对比 | 超越 | 超过 | 胜过 | 优于 | 高于 | 低于 | 不及 | 不如 | 介乎 | 介于
      | between (?: \s+ the )?
      | than | vs\.? | versus | compared\s+(?:to|with) | over
      | (?: evolution | successor | refresh | upgrade ) \s+ (?: of | to | over ) (?: \s+ the )?
      | replac(?: es | ing ) | succeeds | 取代 | 替代 | 接替
      | {RIVAL_WORDS} | takes\s+on | (?: aimed | aims ) \s+ at (?: \s+ the )? )
    \s* $""", I | V)
# "比配备 HBM3 的 H100", "相较于采用 4nm 的 H100": a comparison word, a short modifier ending in 的
MODIFIED_COMPARE = compile_screened(r"""
    (?: 比 | 相比 | 相较于? | 较 | 对比 | 对照 | 对标 | 對標 )
    [^，。,;；!?！？比较]{1,16}? 的 \s*+ (?: 初代 | 第一代 )? \s*+ $""", V)
# "而对比落后一代，配备 HBM2E 的 A100": a comparison word opening its clause, a modifier
# that may run over one comma, ending in 的
LEAD_MODIFIED_COMPARE = compile_screened(r"""
    (?: ^ | (?<= [，,。；;：:\s] ) ) (?: 而 | 但 | 若 | 再 )?
    (?: 对比 | 相比于? | 相较于? | 比起 ) (?! 之下 )   # ("相比之下，…": "by contrast", no comparison)
    [^，。,;；!?！？比较]{1,12}? [，,]? [^，。,;；!?！？比较]{1,12}? 的 \s*+ $""", V)
# "与 Pascal P100 GPU 相比": a capitalised family word before a chip, "GPU" after it
NAME_WORD_TAIL = compile_screened(r"(?<![A-Za-z])[A-Z][a-z]{2,12}+\s*+$")
GPU_LEAD = compile_screened(r"^\s*+GPU(?![A-Za-z])")
# "H100 升级版": the chip named is what the subject upgrades (its baseline)
UPGRADE_OF = compile_screened(r"(?<!\s) \s*+ (?: 升级 | 增强 | 加强 | 改进 ) 版", V)
# "与上一代采用 GDDR6 的 T4 相比": with-word, a short modifier ending in 的 (a 相比 must follow the chip)
WITH_MODIFIED = compile_screened(r"""
    (?: 与 | 和 | 跟 | 同 )
    [^，。,;；!?！？与和跟同]{1,16}? 的 \s*+ $""", V)
# "(前代3090: 10496个)": an aside naming the chip before as its predecessor
ASIDE_PREDECESSOR = compile_screened(r"""
    [(（] \s*+
    (?: 前代 | 上代 | 上一代 | 前一代
      | (?i: previous (?: \s+gen(?:eration)? )? | last\s+gen(?:eration)? ) )
    \s*+ $""", V)
# a comparison word anywhere in a head
COMPARE_WORD = compile_screened(r"比 | 相较 | 较 | 对比 | (?i: than | compared | versus | \bvs\b | \bover\b )", V)
# "与 H100", "和现有的 A100": a chip something is set beside
WITH = compile_screened(r"""
    (?: 与 | 和 | 跟 | 同 | 像 | like | as )
    (?: 现阶段 | 目前 | 当前 | 现有 )? 的? \s* $""", I | V)
# "…相比", "…保持一致": what closes "与 X"
SAME_AS = compile_screened(r"""
    (?<!\s) \s*+
    (?: 相比 | 相较 | 比较 | 对比 | 一样 | 相同 | 一致 | 保持一致 | 类似 | 持平 | 相当 | 差不多
      | 的规格相同 | 同系列 | 同一系列 | 同代 )""", V)
# a ratio right before a chip: "5 倍于", "68% faster than the"
AFTER_RATIO = compile_screened(r"""
    (?: 倍 | × | \dx | times | % ) \s*
    (?: faster | more | higher | larger | greater )? \s*
    (?: than | that\ of | over | the | of )? \s*
    (?: the | an? )? \s* $""", I | V)
# "NVIDIA 的", "AMD's": a vendor between a comparison word and its chip
# (and a product-line or architecture word before a model: "与 RTX 4070 Ti 一致", "12× Nvidia
# Blackwell B200")
VENDOR_TAIL = compile_screened(r"""
    (?: NVIDIA | Nvidia | AMD | Google | Huawei | 英伟达 | 华为 ) (?: 's | ’s | 的 )? \s*+
    (?: (?: GeForce | RTX | GTX | Radeon | Instinct | Tesla | LINE_ARCH ) \s*+ )*+ $
    | (?: GeForce | RTX | GTX | Radeon | Instinct | LINE_ARCH ) \s*+ $"""
    .replace("LINE_ARCH", "Blackwell | Hopper | Ampere | Volta | Pascal | Turing | Ada | Rubin"), V)
# "from" of a from-to change: "带宽从 600GB/s 降到 400GB/s"
FROM = compile_screened(r"(?: 从 | 由 ) \s* $", V)
# "a lower-power variant of the B200", "successor to the H100", "接棒B200": the chip another
# one is made from or follows (the figures near it are the other one's)
VARIANT_OF = compile_screened(r"""
    (?: (?<![A-Za-z-]) (?: variant | version | derivative | successor | replacement | spin-?off | refresh | upgrade )
        \s++ (?: of | to | for ) \s++ (?: the \s++ | an? \s++ )?
      | (?: 接棒 | 接替 | 取代 | 替代 | 继任 | 接班 ) \s*+ (?: 了 \s*+ )? )   # "接棒B200": what it succeeds
    $""", I | V)
# "从600GB/s降到400GB/s", "由 80GB 提升至 141GB": the change a from-figure starts
TO_AFTER = compile_screened(r"[^，。,;；\n]{0,12}? (?: 到 | 至 | 降 | 升 | 增 | 提高 | 提升 | 减少 | 变为 | 变成 | 改为 )", V)
# "从第一代的16nm工艺升级到7nm", "from the previous generation's 16nm to 7nm": a from-figure
# the words give an earlier generation (no chip named: the figure is no claim)
FROM_PREDECESSOR = compile_screened(r"""
    (?: (?: 从 | 由 ) \s*+ (?: 第一代 | 初代 | 上一代 | 上代 | 前代 | 前一代 ) (?: 产品 | 显卡 | 芯片 | 旗舰 )? 的?
      | (?<![A-Za-z]) from \s++ (?: the \s++ | its \s++ )?
        (?: first | previous | prior | last | older ) [\s-]++ gen(?:eration)? (?: 's | ’s )?
    ) \s* $""", I | V)
# "… 16nm process to 7nm": the English "to" of a change
TO_AFTER_WORD = compile_screened(r"[^,.;\n]{0,24}? \s (?: to | into ) \s", I | V)
# "是 V100 的 …": a weak comparison that needs 的 after the chip (OF_AFTER)
WEAK_COMPARE = compile_screened(r"(?: 是 | 为 | 係 | 系 | 达到 | 达 | 相当于 | 等于 | 等同于 | of ) \s* $", I | V)
# "是V100的": the chip is what is compared against
OF_AFTER = compile_screened(r"""
    (?<!\s) \s*+ (?: GPU \s*+ )?
    (?: (?: 算力 | 性能 | 带宽 | 显存 | 容量 | 功耗 | 规格 | 版本 | 版 ) \s*+ )?  # "V100 算力的", "SXM 版本的"
    [的嘅]""", V)
# "(H100 的 2.6 倍)", "H100 的进化版": a chip something is measured against or derived from
RATIO_OF = compile_screened(r"""
    (?<!\s) \s*+ (?: GPU \s*+ )? [的嘅] \s*+
    (?: [\d.]++ \s*+ (?: 倍 | % )
      | (?: 精简 | 简化 | 进化 | 升级 | 阉割 | 特供 | 缩水 | 增强 ) 版
      | 替代品 | 继任者 | 后继者 | 接班人 )""", V)
# "H100 的 2.6 倍": a ratio of that chip
OF_RATIO_GAP = compile_screened(r"(?<!\s) \s*+ (?: GPU \s*+ )? [的嘅] \s*+", V)
# "the company's older", "its": an owner before a baseline chip
OWNER_TAIL = compile_screened(r"""
    (?: the\s+company[’']s | its | their ) \s++
    (?: (?: older | previous | prior ) \s++ )? $""", I | V)
# "the company's Tesla V100": a product line before the chip
LINE_TAIL = compile_screened(r"(?: Tesla | GeForce | Quadro | Instinct ) \s*+ $", V)
# "介乎 RTX 3060 Ti（4,864 個）與 RTX 3070（5,888 個）之間": the chip that closes a range
BETWEEN_END = compile_screened(r"(?<!\s)\s*+(?:[(（][^()（）\n]{0,20}[)）])?\s*+之[间間]")
# "between the RTX 3060 Ti and the RTX 3070": the chip that closes an English range
BETWEEN_AND = compile_screened(r"(?<![A-Za-z])between\s++(?:the\s++)?[^,;.，。]{1,24}?\s++and\s++(?:the\s++)?$",
                               re.IGNORECASE)
# "its predecessor (A100)": an opening bracket between a word and the chip it names
OPEN_TAIL = compile_screened(r"(?<=[^\s(（])\s*+[(（]\s*+$")
# "全面超越H100：": a verb by which the subject beats the chip after it
SURPASS = compile_screened(rf"(?: 超越 | 超过 | 胜过 | 优于 | 领先 | 碾压 | outperforms? | beats? | surpass(?:es)? | {RIVAL_WORDS} ) \s*+ $",
                           I | V)
# "对比英伟达A100：FP16 312 TFLOPS…": a chip that heads what follows
LABEL_COLON = compile_screened(r"(?<!\s) \s*+ [:：] | ^ [:：]", V)
# comma-like marks that delimit clauses
CLAUSE_PUNCTUATION = compile_screened(r"[，,；;：:]", V)

# === prose linking: speed-ups (speeduplinks.py) =========================================

# the metric word right after a ratio: "2.4 times the capacity", "20x increase in"
METRIC_AFTER = compile_screened(r"""
    ^ \s*+
    (?: (?: increase | improvement | boost | gain | jump ) \s++ in \s++ )?
    (?: the | its | their | in | of | on | 的 | 更高的 | 更大的 )?
    \s*+ $""", I | V)
# "30% of the A100's memory bandwidth": the share's chip, between the figure and the metric
OF_CHIP_GAP = compile_screened(r"^ \s*+ of \s++ (?: the \s++ )? $", I | V)
POSSESSIVE_GAP = compile_screened(r"^ (?: ['’] s )? \s*+ $", V)
# a gain stated without its baseline: "3 倍的性能提升", "5x faster", "翻倍"
IMPLICIT_GAIN = compile_screened(r"""
    (?<![\d.]) [\d.]++ \s*+ 倍 的? (?: 性能 )? 提升
    | (?<![\d.]) [\d.]++ \s*+ (?: x | × | times ) \s++
      (?: faster | higher | greater | more | the\ performance )
    | (?: doubles | triples | doubled | tripled ) \s++ the
    | 加倍 | 翻倍 | 翻了?一?番""", I | V)
# "性能提高20倍"
GAIN_BEFORE = compile_screened(r"(?: 提升 | 提高 | 增加 | 加快 | 增长 ) 了? \s*+ (?: 约为? | 近 | 高达 | 可达 | 达到? | 为 | 至 )? \s*+ $", V)
# "2.5 times the Volta", "3x Ampere's": the word after a ratio (an architecture, if listed)
ARCH_AFTER = compile_screened(r"(?<!\s)\s*+(?:the\s++|that\s++of\s++(?:the\s++)?)?([A-Za-z]++)")
# "Volta 架构", "Hopper GPU": an architecture named as the baseline
ARCH_SUFFIX = compile_screened(r"""
    架构
    | (?<=[A-Za-z]) (?: \s++ (?: GPU | generation ) | \s*+ architecture )""", I | V)
# "是它的 1.5 倍": the pronoun is the sentence's first subject
PRONOUN_BASELINE = compile_screened(r"""
    (?: 是 | 为 | 係 | 比 ) \s*
    (?: 它 | 其 | 佢 | this | it ) \s*
    (?: 的 | 嘅 | 's )?""", I | V)
# "20x increase in …"
INCREASE_IN = compile_screened(r"^ \s*+ (?: increase | improvement | boost | jump | gain ) \s++ in \s", I | V)
# "8x A100": a count of cards, not a ratio
CARDS_AFTER = compile_screened(r"\s? (?: [A-Z] | \d )", V)
# a 'total' word right before a gain: "总共增加了 12 倍" (the overall gain, no system total)
GAIN_LEAD = compile_screened(r"(?<!\s) \s*+ (?: 增加 | 提升 | 提高 | 增长 | 加快 | 快 | increase | improvement | gain )", I | V)
# "与 V100 相比，": a baseline framing the rest of the sentence
FRAMING_TAIL = compile_screened(r"(?<!\s) \s*+ (?: GPU \s*+ )? (?: 相比 | 相较 | 比较 | 对比 ) (?: 之下 | 而言 )? \s*+ [，,]", V)
# "FP32 的性能": between a precision and the performance word it owns
OWN_WORD = compile_screened(r"\s*+ (?: 的 \s*+ )?", V)
# "TF32 (single precision …)": between a keyword and one in parentheses glossing it
GLOSS = compile_screened(r"(?<!\s) \s*+ [(（] \s*+", V)

# === headings: the title's or a heading's chip over a spec list =========================

NONSPACE = compile_screened(r"\S")
BLANK_LINE = compile_screened(r"[ \t\r\u3000]*+(?:\n|\Z)")
# a section number opening a line: "2." / "2、" (group "top": a heading when its section has
# numbered parts, "2.1"; else it may be an item of a list), "2.3", "二、", "（一）"; then the
# section's title, which starts with a letter and is no unit ("19.5 TFLOPS" is a figure)
SECTION_NUMBER = compile_screened(
    r"(?:(?P<top>\d{1,2})[.、．](?!\d)|\d{1,2}(?:\.\d{1,2}){1,3}+\.?|[一二三四五六七八九十]{1,3}[、.．]"
    r"|[（(](?:\d{1,2}|[一二三四五六七八九十]{1,3})[)）])[ \t\u3000]*+"
    r"(?!(?i:[KMGTP]?i?B(?:/s|ps)?|[KMGTP]?FLOPS|[KMGTP]?OPS|[KMG]?Hz|W|nm|mm2?|bits?)\b)(?=[^\W\d_])")
# a word that starts with a letter (a model name such as "H200", "MI300X", "v5p")
LETTER_WORD = compile_screened(r"(?<![\w.])[A-Za-z][\w-]*+")

# === legends: unit legends over a spec list =============================================

LEGEND = compile_screened(r"[(（]?(?:[^\s\d:：|()（）]{1,10}+[ \t]*+[:：]|(?i:units?)[ \t]*+[:：]?)"
                          r"[ \t]*+(?P<unit>[A-Za-z][A-Za-z/]{0,11}+)[ \t]*+[)）]?")
LEGEND_LABEL_GAP = compile_screened(r"[ \t:：=]*+")
INTEGER_LABEL = compile_screened(r"INT\d|整型|整数|(?i:integer)")

# === topics: the topic chip from sentence to sentence ===================================

# "比上代的三星 8nm 工艺": a figure of the predecessor (a short modifier between)
OF_PREDECESSOR = compile_screened(r"(?:上代|上一代|前代|前一代)(?:产品|显卡|芯片|旗舰)?的[^，。,;；\d]{0,6}+$")
# a plural reference to the chips just named, opening a sentence
PLURAL_REF = compile_screened(r"(?:而|(?i:and)\s++)?(?:它们|他们|两者|二者|这两款|这两张|这两颗|这两种|两款(?:卡|显卡|芯片)?"
                              r"|(?i:they|the\s++two(?:\s++(?:cards|chips|GPUs))?|both(?:\s++(?:cards|chips|GPUs))?))")
FIGURE_JOIN = compile_screened(r"(?<!\s)\s*+(?:与|和|及|、|/|,|，|(?i:and))\s*+")
SAME_TAIL = compile_screened(r"(?<!\s)\s*+(?:的?规格)?\s*+(?:相同|一样|一致|保持一致|持平)\s*+[,，]?\s*+(?:都|也|同样|均)?")
ASIDE_SAME = compile_screened(r"(?<!\s)\s*+(?:相同|一样|一致|持平)\s*+[)）]")

# === comparisons: the value of a speed-up from the words around it =====================

# "是H100的15%", "仅相当于H100的20%", "只有 H100 算力的 20%": a share of the other chip
FRACTION_HEAD = compile_screened(r"""
    (?: 是 | 为 | 相当于 | 只有 | 仅有 | 仅为 | 仅 | 约为 | 约是 )   # "is / only"
    [^，。,;；%]{0,16}? [的嘅]                                     # "H100 算力的"
    \s*+ (?: 约 | 大约 | 近 )? \s*+ $""", V)
# what may follow such a share: "左右", then the clause's end
FRACTION_TAIL = compile_screened(r"^ \s*+ (?: 左右 | 上下 )? \s*+ (?: [，。,;；）)] | $ )", V)
# "only 20% of the H100's"
ONLY_HEAD = compile_screened(r"(?<! [A-Za-z] ) (?: only | just | merely ) \s++ $", I | V)
OF_TAIL = compile_screened(r"^ \s++ of \s", I | V)
# "30% of the A100's", "a fifth of Nvidia's H100": a share of a model named right after
OF_CHIP = compile_screened(r"""
    ^ \s++ of \s++ (?: the \s++ )?
    (?: [A-Z]\w*+ ['’]s \s++ )?          # a vendor's: "Nvidia's"
    [A-Z][A-Za-z]*+ \s? \d                # a model name: letters, then a digit
    """, V)
# "提升一倍": 一倍 with a word of increase is 2
# "比 B200 高 50%", "比 H100 少约 20%": a bare more / less word after a 比 comparison, right
# before a percentage (alone, 高 and 多 are no gain words: "高达 50%")
COMPARED_MORE = compile_screened(r"比 [^，。,;；！？]{1,24}? (?: 高 | 多 | 大 | 强 ) 了? \s*+ (?: 约 | 近 | 将近 )? \s*+ $", V)
COMPARED_LESS = compile_screened(r"比 [^，。,;；！？]{1,24}? (?: 低 | 少 | 小 | 弱 ) 了? \s*+ (?: 约 | 近 | 将近 )? \s*+ $", V)
ONE_FOLD = compile_screened(r"(?: 提升 | 提高 | 增加 | 增长 | 快 | 加快 | 高出 | 多出 | 翻 ) 了? \s*+ $", V)

# === fractionwords: fractions written as words or "/" ===================================

# "H200 的 1/34", "五分之一", "一半", "a third of"
FRACTION = compile_screened(r"""
    (?: (?<= 的 ) | (?= [一二两三四五六七八九十百aAoO] ) )   # where one can start: one cheap test
    (?: (?<= 的 ) \s*+ (?P<a> \d{1,3} ) \s*+ / \s*+ (?P<b> \d{1,4} ) (?! [\d./%] | \s*+ [A-Za-z] )
    | (?P<cb> [一二两三四五六七八九十百]{1,3} ) 分之 (?P<ca> [一二三四五六七八九十]{1,2} )
    | (?P<half> 一半 )
    | (?<! [A-Za-z] ) (?i: (?: a | one ) [\s-] (?P<w> half | third | quarter | fourth | fifth
                                                     | sixth | eighth | tenth ) \s++ of ) \b )
    """, re.VERBOSE)

# === claims: the whole document =========================================================

LATIN_OR_DIGIT = frozenset(string.ascii_letters + string.digits)   # a Latin label's first character
# Where a figure can be: a digit, a Chinese numeral with a counter, a number word (behind
# a look-ahead on their first characters: most positions fail one set test).
FIGURE_HINT = compile_screened(r"""
    (?=[0-9一二两三四五六七八九十翻加]|(?i:[tdqsf]))     # first characters
    (?: [0-9]                                           # a digit
      | [一二两三四五六七八九十]\s*[个颗倍代成]             # a numeral with a counter
      | 翻(?:了)?(?:一)?[番倍] | 加倍                      # "翻了一番"
      | (?i:twice|double|triple|quadruple|seven|first|second|third|fourth|fifth|sixth) )
    """, re.VERBOSE)
TABLE_RULE = compile_screened(r"^[\s|:\-+=]+$")                          # "|---|---|"

# === blocks: long documents =============================================================

# Where a long line may be cut: after a sentence end or a space.
BREAK = compile_screened(r"[。！？；.!?;]\s*|\s+")

# === tables: grid and run tables ========================================================

EMPTY_CELL = compile_screened(r"N/A|n/a|不支持|暂无|未公布|TBD|—|(?<![\w.])-(?![\w.])")
SEPARATOR_ROW = compile_screened(r"^[\s|:\-+=]*$")
TABLE_WIDE_GAP = compile_screened(r"\t|\s{2,}| \| |\|")                  # between two cells
SPACE_RUN = compile_screened(r"\s\s")  # with "\t" and "|", what TABLE_WIDE_GAP needs (a quicker test)
TABLE_HEADER_GAP = compile_screened(r"^[\s|/]*(?:\([^()\n]{0,20}\)|（[^（）\n]{0,20}）)?[\s|/]*(?:vs\.?|VS)?[\s|/]*$")  # "H100 (Hopper) H20"
# between the cells of a run-table row: "TSMC 4NSamsung 8N", "700W+ 250W左右", "4.8TB/s
# 约1TB/s" (a bound or "about" after a cell, "about" before one)
RUN_GAP = compile_screened(r"^(?:\+|左右|以上|上下)?[\s|/、,，;；]*(?:TSMC|台积电|Samsung|三星)?[\s']*(?:~|～|约)?$")
# possessive (*+): each piece has one way to match, and a backtracking loop would keep a
# restart point per piece (time grows faster than the length on long runs of 数)
LABEL_TAIL = compile_screened(r"""
    ^(?: [\s|:：/]                      # blanks, pipes, colons, slashes
       | 数量|个数|数                    # count words
       | 性能|算力|效能                  # "FP32 性能", "FP16 算力": a precision's label goes on
       | \([^)]{0,8}\) | （[^）]{0,8}）   # a short bracketed note
       | TSMC|台积电|Samsung|三星 )*+$   # foundry names
    """, re.VERBOSE)

# === linetables: one line per table row =================================================

HEADER_FILLER = compile_screened(rf"""
    ^[\s|/]*+
    (?: (?: {BRAND_WORDS} )             # vendor and brand words
        [\s|/]*+ )*+$
    """, re.VERBOSE)
# labels that name an attribute word but count something else: units of one precision
# ("FP64 Cores"), memory clocks and pin speeds
NOT_SPEC = compile_screened(r"""
      (?:FP|INT)\d++\s*+(?:Cores?|核心|单元|units?)     # "FP64 Cores"
    | Memory\s++(?:Clock|Speed) | Data\s++Rate          # memory clocks, pin speeds
    | 显存频率|内存频率|显存速率|等效频率
    """, re.IGNORECASE | re.VERBOSE)
LINE_HEADER_GAP = compile_screened(r"""
    \s*+
    (?: \([^()\n]{0,30}\) | （[^（）\n]{0,30}） )?          # a bracketed note
    (?: [\s|/] | NVIDIA|AMD|GeForce|Tesla|Instinct )*+     # blanks and brand words
    """, re.VERBOSE)
NOTE_TAIL = compile_screened(r"^\s*+(?:\([^()\n]{0,30}\)|（[^（）\n]{0,30}）)")
CORNER = compile_screened(r"[^\d\s,，。;；:：]{1,8}\s++")  # "指标 ": the label column's header
VALUES_START = compile_screened(r"\d|(?:N/?A|n/a)(?![A-Za-z])|—")
PRECISION_NAME = compile_screened(r"(?:FP|INT|BF|TF)\d++")  # an unmasked "FP16" is no figure
PER_UNIT = compile_screened(r"""
      /\s*+SM\b | per\s++SM | 每\s*+(?:个\s*+)?SM          # per SM
    | /\s*+(?:CU|TPC|GPC)\b | per\s++(?:CU|TPC|GPC)        # per CU, TPC, GPC
    """, re.IGNORECASE | re.VERBOSE)

# === rowtables: a chip per row ==========================================================

GROUP_JOIN = compile_screened(r"(?<!\s)\s*+[|/]\s*+")
ROW_START = compile_screened(r"[^\d\n]{0,40}")  # brand words before the row's chip

# === gluedcells: figures run together in a flattened table ==============================

NUMBER_RUN = compile_screened(r"[\d.,]++")
LONG_DECIMALS = compile_screened(r"(?<![\d,])[\d,]*+\.\d{4}")  # a table prints three decimals at most
VALID_NUMBER = compile_screened(r"""
    (?: [1-9]\d{0,2}(?:,\d{3})++    # 1,979
      | [1-9]\d*+                   # 1979
      | 0(?=\.) )                   # 0.5
    (?:\.\d++)?                     # decimals
    """, re.VERBOSE)
EMPTY = compile_screened(r"(?:N/?A|n/a|—|-|–|不支持|无)(?![A-Za-z])")
GAP = compile_screened(r"[\s|]*+(?:(?:TSMC|Samsung|SMIC|台积电|三星|中芯国际)\s*+)?")  # "TSMC 4nm"
GLUED_PAIR_JOIN = compile_screened(r"(?<!\s)\s*+/\s*+(?=\d)")
NOTE = compile_screened(r"\s?(?:[A-Z][A-Za-z]{1,5}\s?)?\([^()\n]{0,30}\)")  # "(2nd Gen)", "FFN(FinFET)"
ORDINAL_SUFFIX = compile_screened(r"(?:st|nd|rd|th)(?![a-z])(?:\s?(?i:gen(?:eration)?)\b)?")
GLUED_MAGNITUDE = compile_screened(r"\s?(?:B(?![A-Za-z/])|bn\b|billion\b|亿|万)")

# === cells: one table cell ==============================================================

# a magnitude word alone in a label's brackets: "晶体管数量(亿)", "(billions)"
MAGNITUDE_LABEL = compile_screened(r"[(（]\s*+(万亿|千亿|百亿|千万|百万|万|亿|(?i:thousand|million|billion|trillion)s?)\s*+[)）]")
BRACKETED = compile_screened(r"(?<!\s)\s*+[)）]")
CELL_CLAUSE_MARK = compile_screened(r"[,，;；、]")
AFTER_GAP = compile_screened(r"^\s*+[(（]?\s*+的?\s*+$")  # "2TB/s 带宽", "10.6 TFLOPS(FP32)"
DENSITY_GAP = compile_screened(r"\s*+(?:with\s++|w/\s*+)?")  # "724 sparse", "485 TFLOPS with sparsity"
OP_BEFORE = compile_screened(r"(?:>|≥|超过|more than|over)\s*$", re.IGNORECASE)

# === comparecol: a comparison column ====================================================

COMPARE_HEADER = compile_screened(r"""
      (?:性能|性能的?|算力)?
      (?:提升|提升幅度|增幅|涨幅|加速比|倍数|提升倍数|对比)          # "性能提升", "加速比"
    | (?i:speed-?ups?|improvement|uplift|gain|x\s*faster|ratio)
    """, re.VERBOSE)
DECREASE = compile_screened(r"[-−–]\s*$")


# === first characters ===================================================================

# The characters a match can start with (regex_screens.first_characters) of the patterns
# matched at a given place once per figure or chip: where the character there is none of
# them the pattern cannot match, and one set test stands for a call into the regex engine
# (``match_at(RANGE_AFTER, RANGE_AFTER_STARTS, text, pos)``).
RANGE_AFTER_STARTS = first_characters(RANGE_AFTER)
RANGE_JOIN_STARTS = first_characters(RANGE_JOIN)
RATIO_NOTATION_NEXT_STARTS = first_characters(RATIO_NOTATION_NEXT)
ASIDE_AFTER_STARTS = first_characters(ASIDE_AFTER)
POSSESSIVE_STARTS = first_characters(POSSESSIVE)
POSSESSIVE_LIST_STARTS = first_characters(POSSESSIVE_LIST)
SAME_AS_STARTS = first_characters(SAME_AS)
LABEL_COLON_STARTS = first_characters(LABEL_COLON)
RATIO_OF_STARTS = first_characters(RATIO_OF)
UPGRADE_OF_STARTS = first_characters(UPGRADE_OF)
BETWEEN_END_STARTS = first_characters(BETWEEN_END)
EDITION_AFTER_STARTS = first_characters(EDITION_AFTER)
SYSTEM_AFTER_STARTS = first_characters(SYSTEM_AFTER)
PLURAL_REF_STARTS = first_characters(PLURAL_REF)
TABLE_RULE_STARTS = first_characters(TABLE_RULE)


def match_at(pattern: re.Pattern, starts: frozenset[str], text: str,
             pos: int = 0) -> re.Match | None:
    """``pattern.match(text, pos)``, where ``starts`` holds the characters its matches can
    start with: none where ``text[pos]`` is none of them, without calling the engine."""
    return pattern.match(text, pos) if text[pos:pos + 1] in starts else None
