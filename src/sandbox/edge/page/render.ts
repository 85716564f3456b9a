// The sandbox's payment page behind every payment_link, rendered as plain HTML strings (no script, no external asset).

export interface PageSession {
  id: string;
  amount: number;
  currency: string;
  order_id?: string;
  source_url?: string;
  redirect_url: string;
  expires_at: string; // RFC 3339
  status: "created" | "completed" | "expired";
}

/** The words for the failure reasons the page offers; any other code is shown as it is. */
const REASON_LABELS: Readonly<Record<string, string>> = {
  card_declined: "Card declined",
  insufficient_funds: "Insufficient funds",
  authentication_failed: "Authentication failed",
  processing_error: "Processing error",
};

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** Escapes text for element content and quoted attribute values alike. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);
}

/** Only web URLs may become a link or a merchant name: a javascript: or data: URL from a session never reaches the page. */
function webUrl(value: string | undefined): URL | undefined {
  if (!value || !/^https?:\/\//i.test(value)) return undefined;
  return URL.parse(value) ?? undefined;
}

export function formatAmount(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).format(amount);
  } catch {
    // An unknown currency code makes Intl throw; the page must still render.
    return `${amount} ${currency}`;
  }
}

/** "18 June 2025, 14:05 UTC", built by hand so it reads the same whatever locale data Node carries. */
function formatExpiry(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, "0");
  return (
    `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}, ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`
  );
}

const reasonLabel = (code: string) => (Object.hasOwn(REASON_LABELS, code) ? REASON_LABELS[code]! : code);

// Icons are inline SVG so the page loads nothing from anywhere.
const ICONS = {
  mark:
    '<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">' +
    '<rect x="2" y="5" width="20" height="14" rx="3" fill="currentColor"/>' +
    '<rect x="2" y="8.5" width="20" height="2.6" fill="#fff" opacity=".85"/>' +
    '<rect x="5" y="14" width="6" height="2" rx="1" fill="#fff" opacity=".85"/></svg>',
  check:
    '<svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true">' +
    '<path d="M5 12.5l4.5 4.5L19 7.5" fill="none" stroke="currentColor" stroke-width="2.4" ' +
    'stroke-linecap="round" stroke-linejoin="round"/></svg>',
  clock:
    '<svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true">' +
    '<circle cx="12" cy="12" r="8.5" fill="none" stroke="currentColor" stroke-width="2"/>' +
    '<path d="M12 7.5V12l3 2" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>',
  search:
    '<svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true">' +
    '<circle cx="10.5" cy="10.5" r="6" fill="none" stroke="currentColor" stroke-width="2"/>' +
    '<path d="M15 15l5 5" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>',
  alert:
    '<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">' +
    '<circle cx="12" cy="12" r="9.5" fill="currentColor"/>' +
    '<path d="M12 7v6" stroke="#fff" stroke-width="2.2" stroke-linecap="round"/>' +
    '<circle cx="12" cy="16.6" r="1.3" fill="#fff"/></svg>',
};

const STYLE =
  `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;min-height:100vh;background:#f3f4f7;color:#1b1f2a;` +
  `font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;-webkit-font-smoothing:antialiased}
.ribbon{background:#ffb020;color:#3d2800;text-align:center;font-size:13px;font-weight:600;padding:6px 12px;letter-spacing:.01em}
main{display:flex;flex-direction:column;align-items:center;padding:48px 16px 32px}
.card{width:100%;max-width:440px;background:#fff;border-radius:14px;` +
  `box-shadow:0 1px 2px rgba(16,24,40,.06),0 8px 24px rgba(16,24,40,.08);overflow:hidden}
.head{display:flex;align-items:center;justify-content:space-between;gap:12px;padding:18px 24px;border-bottom:1px solid #eceef3}
.brand{display:flex;align-items:center;gap:8px;font-weight:700;font-size:15px;color:#1b1f2a}
.brand svg{color:#2f5bea}
.badge{display:inline-flex;align-items:center;gap:6px;padding:3px 10px;border-radius:999px;` +
  `background:#fff4e0;color:#8a4b00;border:1px solid #ffd79a;font-size:12px;font-weight:600;white-space:nowrap}
.badge::before{content:"";width:7px;height:7px;border-radius:50%;background:#f59e0b}
.summary{padding:28px 24px 8px;text-align:center}
.payee{margin:0;color:#5b6275;font-size:14px}
.amount{margin:4px 0 0;font-size:40px;font-weight:700;letter-spacing:-.02em;line-height:1.15;overflow-wrap:anywhere}
.details{margin:20px 24px 0;padding:0;border-top:1px solid #eceef3}
.details div{display:flex;justify-content:space-between;gap:16px;padding:11px 0;border-bottom:1px solid #eceef3;font-size:14px}
.details div:last-child{border-bottom:0}
.details dt{color:#5b6275;flex:none}
.details dd{margin:0;text-align:right;font-weight:500;min-width:0;overflow-wrap:anywhere}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px;font-weight:400}
.body{padding:20px 24px 24px}
.notice{display:flex;gap:10px;align-items:flex-start;margin:0 0 18px;padding:12px 14px;` +
  `border-radius:10px;background:#fef3f2;border:1px solid #fecdca;color:#912018;font-size:14px}
.notice svg{flex:none;color:#d92d20;margin-top:1px}
.notice p{margin:0}
.hint{margin:0 0 14px;color:#5b6275;font-size:13px;text-align:center}
.btn{display:block;width:100%;border-radius:10px;padding:13px 16px;font:inherit;font-weight:600;font-size:16px;` +
  `cursor:pointer;text-align:center;text-decoration:none;transition:background-color .15s,border-color .15s}
.btn:focus-visible,select:focus-visible{outline:3px solid #9db5ff;outline-offset:2px}
.primary{background:#2f5bea;border:1px solid #2f5bea;color:#fff}
.primary:hover{background:#2449c9;border-color:#2449c9}
.secondary{background:#fff;border:1px solid #d0d5dd;color:#b42318}
.secondary:hover{background:#fef3f2;border-color:#fda29b}
.or{display:flex;align-items:center;gap:12px;margin:20px 0 14px;color:#8a90a0;font-size:12px;text-transform:uppercase;letter-spacing:.06em}
.or::before,.or::after{content:"";flex:1;border-top:1px solid #eceef3}
label{display:block;margin:0 0 6px;font-size:13px;font-weight:600;color:#344054}
.fail{display:flex;gap:10px}
.fail .btn{width:auto;flex:none;padding:10px 22px;font-size:15px}
.select{position:relative;flex:1;min-width:0}
.select::after{content:"";position:absolute;right:15px;top:50%;width:7px;height:7px;border-right:2px solid #5b6275;` +
  `border-bottom:2px solid #5b6275;transform:translateY(-70%) rotate(45deg);pointer-events:none}
select{width:100%;padding:10px 38px 10px 12px;border:1px solid #d0d5dd;border-radius:10px;` +
  `background:#fff;font:inherit;font-size:15px;color:#1b1f2a;-webkit-appearance:none;appearance:none}
.state{text-align:center;padding:4px 0 4px}
.state .icon{display:inline-flex;align-items:center;justify-content:center;width:56px;height:56px;border-radius:50%;margin-bottom:10px}
.state.paid .icon{background:#e7f8ef;color:#079455}
.state.expired .icon{background:#f2f4f7;color:#5b6275}
.state.missing .icon{background:#eef2ff;color:#2f5bea}
.state h1{margin:0 0 6px;font-size:20px;line-height:1.3}
.state p{margin:0 0 18px;color:#5b6275;font-size:14px}
.state p:last-child{margin-bottom:0}
.state .btn{margin-top:4px}
.pill{display:inline-block;margin-top:10px;padding:2px 10px;border-radius:999px;font-size:12px;font-weight:600}
.pill.open{background:#eef2ff;color:#2f4ac0}
.pill.paid{background:#e7f8ef;color:#067647}
.pill.expired{background:#f2f4f7;color:#475467}
.foot{margin:20px 0 0;color:#8a90a0;font-size:12px;text-align:center;max-width:440px}
@media (max-width:480px){
main{padding:20px 12px 24px}
.head{padding:14px 18px}
.summary{padding:22px 18px 4px}
.amount{font-size:34px}
.details{margin:16px 18px 0}
.body{padding:18px 18px 20px}
.fail{flex-direction:column}
.fail .btn{width:100%}
}
`;

function htmlDocument(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="color-scheme" content="light">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<div class="ribbon">Test mode · no real money is moved</div>
<main>
<div class="card">
<header class="head"><span class="brand">${ICONS.mark}Payin</span><span class="badge">Test mode</span></header>
${content}
</div>
<p class="foot">Payin Acceptance sandbox. Payments on this page are simulated.</p>
</main>
</body>
</html>
`;
}

function backLink(session: PageSession): string {
  const url = webUrl(session.redirect_url);
  return url ? `<a class="btn primary" href="${escapeHtml(session.redirect_url)}">Back to the shop</a>` : "";
}

function form(session: PageSession, reasons: readonly string[], failed: string | undefined): string {
  const options = reasons
    .map((code) => `<option value="${escapeHtml(code)}"${code === failed ? " selected" : ""}>${escapeHtml(reasonLabel(code))}</option>`)
    .join("");
  return `<form method="post" action="/pay/${escapeHtml(encodeURIComponent(session.id))}">
<p class="hint">Simulate the customer's choice.</p>
<button type="submit" class="btn primary" name="outcome" value="pay">Pay</button>
<div class="or">or</div>
<label for="failure_reason">Failure reason</label>
<div class="fail">
<div class="select"><select id="failure_reason" name="failure_reason">${options}</select></div>
<button type="submit" class="btn secondary" name="outcome" value="fail">Fail</button>
</div>
</form>`;
}

/**
 * The page at payment_link, its Fail offering `reasons`. `failed` is the failure_reason of the last attempt when the
 * customer just chose Fail (the session stays open for another try).
 */
export function paymentPage(session: PageSession, reasons: readonly string[], notice?: { failed?: string }): string {
  const amount = formatAmount(session.amount, session.currency);
  const merchant = webUrl(session.source_url)?.host;
  const pill = { created: ["open", "Open"], completed: ["paid", "Paid"], expired: ["expired", "Expired"] }[session.status];

  const row = (term: string, value: string) => `<div><dt>${term}</dt><dd>${value}</dd></div>\n`;
  const rows =
    (session.order_id !== undefined ? row("Order", `<span class="mono">${escapeHtml(session.order_id)}</span>`) : "") +
    (merchant ? row("Merchant", escapeHtml(merchant)) : "") +
    row(
      session.status === "expired" ? "Expired" : "Expires",
      `<time datetime="${escapeHtml(session.expires_at)}">${escapeHtml(formatExpiry(session.expires_at))}</time>`,
    ) +
    row("Session", `<span class="mono">${escapeHtml(session.id)}</span>`);

  let body: string;
  if (session.status === "completed") {
    body = `<div class="state paid">
<span class="icon">${ICONS.check}</span>
<h1>Payment completed</h1>
<p>This payment has been paid. It cannot be paid again.</p>
${backLink(session)}
</div>`;
  } else if (session.status === "expired") {
    body = `<div class="state expired">
<span class="icon">${ICONS.clock}</span>
<h1>Payment link expired</h1>
<p>The session can no longer be paid. Start a new payment from the shop.</p>
${backLink(session)}
</div>`;
  } else {
    // Only an open session can carry the notice: a failed attempt leaves it open for another try.
    const alert =
      notice?.failed !== undefined
        ? `<div class="notice" role="alert">${ICONS.alert}` +
          `<p>The payment failed (${escapeHtml(reasonLabel(notice.failed))}). The customer can try again.</p></div>\n`
        : "";
    body = alert + form(session, reasons, notice?.failed);
  }

  const title = { created: `Pay ${amount}`, completed: "Payment completed", expired: "Payment expired" }[session.status];
  return htmlDocument(
    `${title} · Payin sandbox`,
    `<section class="summary">
<p class="payee">${merchant ? `Payment to ${escapeHtml(merchant)}` : "Payment"}</p>
<p class="amount">${escapeHtml(amount)}</p>
<span class="pill ${pill[0]}">${pill[1]}</span>
</section>
<dl class="details">
${rows}</dl>
<div class="body">
${body}
</div>`,
  );
}

/** The page when the sandbox turned the customer's call away (too many at once, the database away), with its words. */
export function refusedPage(detail: string): string {
  return htmlDocument(
    "Payment unavailable · Payin sandbox",
    `<div class="body">
<div class="state missing">
<span class="icon">${ICONS.alert}</span>
<h1>Payment unavailable</h1>
<p>${escapeHtml(detail)}</p>
</div>
</div>`,
  );
}

/** The page for an unknown session id (served with status 404). */
export function notFoundPage(sessionId: string): string {
  return htmlDocument(
    "Payment not found · Payin sandbox",
    `<div class="body">
<div class="state missing">
<span class="icon">${ICONS.search}</span>
<h1>Payment not found</h1>
<p>No payment session <span class="mono">${escapeHtml(sessionId)}</span> exists in this sandbox.</p>
<p>Sessions kept in memory are lost when the sandbox restarts; create a new one.</p>
</div>
</div>`,
  );
}
