// The dashboard's style, inline (its CSP allows no stylesheet from anywhere). Tables are read as
// cards where they do not fit (a phone): every control stays on the screen, none behind a
// horizontal scroll. What an attempt sent and got back wraps rather than widens the page, and so
// does any value a request gave (a name, an email, a URL: the contract allows them long and
// unbroken); a session's order and customer are cut at their column's end instead, whole in
// their title, and wrapped whole on a phone, which has no pointer to hover with.
// A string, not its literal type: the declaration the package ships would carry the whole sheet.
export const STYLE: string = `
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#1b2430;background:#f4f6f9}
header{background:#1b2430;color:#fff;padding:12px 16px;display:flex;flex-wrap:wrap;gap:8px;align-items:center;justify-content:space-between}
header h1{font-size:18px;margin:0}main{max-width:1100px;margin:0 auto;padding:16px}
section{background:#fff;border:1px solid #dde3ea;border-radius:8px;padding:12px 16px;margin:0 0 16px}
h2{font-size:16px;margin:0 0 8px}h3{font-size:14px;margin:12px 0 4px}p{margin:0 0 8px}
a{color:#1f47c4}
/* An underline on the baseline hides a code's underscores (ps_… reads "ps …"): below them, unbroken. */
a{text-underline-offset:.3em;text-decoration-skip-ink:none}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:6px 8px;border-top:1px solid #eef1f4;vertical-align:top;font-size:14px}th{color:#5b6675;font-weight:600}
code,pre{font:13px/1.45 ui-monospace,monospace;overflow-wrap:anywhere}td code{white-space:nowrap}
p,.wrap{overflow-wrap:anywhere}
.clip{display:inline-block;max-width:16em;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;vertical-align:bottom}
.contact{display:inline-block;min-width:14em}
pre{margin:0 0 8px;padding:8px;background:#f6f8fa;border:1px solid #e3e8ee;border-radius:6px;white-space:pre-wrap;word-break:break-all}
form{display:inline-flex;gap:6px;flex-wrap:wrap;align-items:center;margin:2px 0}[hidden]{display:none}
button,input,select{font:inherit;padding:4px 10px;border:1px solid #b8c2cd;border-radius:6px;background:#fff;max-width:100%}
button{cursor:pointer;background:#2450d6;color:#fff;border-color:#2450d6}.quiet{background:#fff;color:#1b2430}
.ok{color:#137333}.bad{color:#b3261e}.muted{color:#5b6675}.note{padding:8px 12px;border-radius:6px;margin:0 0 12px}
.note.ok{background:#e6f4ea}.note.bad{background:#fce8e6}
.filter{display:flex;margin:0 0 12px}.filter label{display:inline-flex;gap:6px;align-items:center}
ol.events,ol.attempts{list-style:none;margin:0;padding:0}
ol.events>li{border-top:1px solid #eef1f4;padding:8px 0}
summary{cursor:pointer;padding:2px 0}summary button{padding:2px 10px}
summary .line{display:inline-grid;grid-template-columns:13.5em 6.5em 6.5em minmax(0,1fr) auto;gap:4px 12px;align-items:center}
summary .line{width:calc(100% - 1.5em);vertical-align:top}
summary .state{display:contents}
.kind{font-weight:600;white-space:nowrap}
.outcome{font-size:13px;font-weight:600;padding:1px 8px;border-radius:10px;background:#eef1f4;white-space:nowrap}
.outcome.ok{background:#e6f4ea}.outcome.bad{background:#fce8e6}
.delivery{margin:8px 0 0 18px;scroll-margin-top:6em}
ol.attempts>li{border-left:3px solid #8cc79b;padding:0 0 0 10px;margin:10px 0}ol.attempts>li.missed{border-color:#e8a29c}
h4{font-size:14px;margin:0 0 4px}
.exchange{display:grid;grid-template-columns:minmax(0,2fr) minmax(0,1fr);gap:0 12px}
@media (max-width:760px){
main{padding:10px}section{padding:10px 12px}
thead{display:none}table,tbody,tr,td{display:block}
tr{border:1px solid #dde3ea;border-radius:8px;padding:6px 10px;margin:0 0 10px}
td{border:0;padding:3px 0;display:grid;grid-template-columns:8em minmax(0,1fr);gap:8px;overflow-wrap:anywhere}
td code{white-space:normal}.contact{min-width:0}.clip{max-width:100%;white-space:normal;overflow-wrap:anywhere}
td::before{content:attr(data-label);color:#5b6675;font-weight:600}td.actions{display:block}td.actions::before{content:none}
.delivery{margin-left:0}.exchange{grid-template-columns:minmax(0,1fr)}
summary .line{grid-template-columns:minmax(0,1fr) auto;grid-template-areas:"kind resend" "state resend" "id id"}
summary .kind{grid-area:kind}summary .state{grid-area:state;display:flex;gap:8px;align-items:center}summary .id{grid-area:id}
summary button{grid-area:resend}
}
`;
