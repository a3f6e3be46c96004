"""The report's one stylesheet (inlined in every page): verdict colours, a font stack
with CJK fallbacks, a layout that fits the window from phone to desktop width.

Chinese text is drawn in the first font of the stack that has the character: Noto Sans
CJK / Source Han Sans, PingFang, Microsoft YaHei / JhengHei, WenQuanYi. Simplified and
traditional pages (``lang`` zh-Hans / zh-Hant) list the SC or TC cuts first. Without any
CJK font installed, Chinese text shows as empty boxes (see the README).
"""
from __future__ import annotations

COLOURS = {"supported": "#b7e4c7", "approximate": "#ffe08a", "contradicted": "#ff9b9b",
           "unverifiable": "#d6d6d6"}
LATIN = 'system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial'
CJK_SC = ('"Noto Sans CJK SC","Noto Sans SC","Source Han Sans SC","PingFang SC",'
          '"Hiragino Sans GB","Microsoft YaHei","WenQuanYi Micro Hei"')
CJK_TC = ('"Noto Sans CJK TC","Noto Sans TC","Source Han Sans TC","PingFang TC",'
          '"Microsoft JhengHei"')
FONTS = {"": f"{LATIN},{CJK_SC},{CJK_TC},sans-serif",
         "zh-Hant": f"{LATIN},{CJK_TC},{CJK_SC},sans-serif"}

CSS = (
    f":root{{--sans:{FONTS['']}}}:lang(zh-Hant){{--sans:{FONTS['zh-Hant']}}}"
    """
body{font:14px/1.5 var(--sans);margin:0 auto;padding:1em 1.5em;max-width:1600px;color:#222}
h1{font-size:1.4em;margin:.2em 0;overflow-wrap:anywhere}h2{font-size:1.15em;margin:1.4em 0 .4em}
h3{font-size:1em;margin:1em 0 .3em}
a{color:#0645ad}p{margin:.4em 0}.muted{color:#666}.error{color:#a00}.num{text-align:right}
.path{overflow-wrap:anywhere}
table{border-collapse:collapse;font-size:13px;max-width:100%}
td,th{border:1px solid #ddd;padding:2px 6px;vertical-align:top;text-align:left;overflow-wrap:anywhere}
th{background:#f3f3f3}.scroll{max-width:100%;overflow-x:auto}
.charts{display:flex;flex-wrap:wrap;gap:1em 2.5em}.charts figure{margin:0;min-width:0;max-width:100%}
figcaption{font-weight:600;margin-bottom:.3em}
svg.chart{max-width:100%;height:auto;display:block}svg text{font-size:11px;fill:#333}
svg.bar{vertical-align:middle}.f-hist{fill:#9db4d8}
details{margin:.2em 0}summary{cursor:pointer}details>ol,details>p{margin-left:1.2em}
.layout{display:grid;grid-template-columns:minmax(0,1.1fr) minmax(0,1fr);gap:1.5em;align-items:start}
.side{position:sticky;top:0;max-height:100vh;overflow-y:auto}
pre.doc{white-space:pre-wrap;overflow-wrap:anywhere;font:15px/1.7 var(--sans);margin:0;background:#fafafa;border:1px solid #ddd;padding:1em}
mark{padding:1px 2px;border-radius:3px;color:inherit}mark sup{font-size:10px;margin-left:1px}
ol.claims{list-style:none;margin:0;padding:0;font-size:13px;line-height:1.4}
ol.claims li{border-bottom:1px solid #eee;padding:4px 2px}ol.claims li:target{outline:2px solid #36c}
.l1{padding-left:2.2em;text-indent:-2.2em}ol.claims .l1 .n{display:inline-block;min-width:2.2em;text-indent:0;color:#666}
.badge{padding:0 5px;border-radius:3px;font-size:12px;white-space:nowrap}
details .l1{padding-left:0;text-indent:0}.diag{margin-left:2.2em;overflow-wrap:anywhere}.meta{margin-left:2.2em;color:#666;font-size:12px;overflow-wrap:anywhere}
.cite{color:#0645ad}
.legend span{display:inline-block;padding:0 8px;margin-right:6px;border-radius:3px}
@media (max-width:900px){body{padding:.6em}.layout{grid-template-columns:minmax(0,1fr)}
.side{position:static;max-height:none}pre.doc{font-size:14px;padding:.6em}}
"""
    + "".join(f".v-{v}{{background:{c}}}.f-{v}{{fill:{c}}}" for v, c in COLOURS.items()))
