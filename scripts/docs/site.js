// The docs site's one script, on every page: a copy button on every code block, the menu button
// of narrow windows, and the search box of the header, over every page (search-index.json, made
// by the build with MiniSearch), each result with a snippet of the text it matched.

const header = document.querySelector(".site-header");
const menu = header.querySelector(".menu");
const toggle = (open) => {
  header.classList.toggle("open", open);
  menu.setAttribute("aria-expanded", String(open));
};
menu.addEventListener("click", () => toggle(!header.classList.contains("open")));
// A link of the menu to a section of this page leaves the page where it is: the menu closes.
header.addEventListener("click", (event) => {
  if (event.target.closest("nav a")) toggle(false);
});

for (const block of document.querySelectorAll("main pre")) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "copy";
  button.textContent = "Copy";
  button.addEventListener("click", async () => {
    await navigator.clipboard.writeText(block.querySelector("code")?.innerText ?? block.innerText);
    button.textContent = "Copied";
    setTimeout(() => (button.textContent = "Copy"), 1500);
  });
  block.append(button);
}

const input = document.getElementById("site-search");
const list = document.getElementById("search-results");
let index;

/** The index, fetched once, when the reader first types; the build says which fields it has. */
const loadIndex = async () =>
  (index ??= fetch("search-index.json")
    .then((answer) => answer.json())
    .then(({ options, index: data }) => window.MiniSearch.loadJS(data, options)));

/** Each page's text (its Markdown twin, which llms.txt lists too), fetched once, for the snippets. */
const texts = new Map();
const textOf = (file) =>
  texts.get(file) ??
  texts
    .set(
      file,
      fetch(file.replace(/\.html$/, ".md"))
        .then((answer) => (answer.ok ? answer.text() : ""))
        .catch(() => ""),
    )
    .get(file);

/** Some 160 characters of the text around the first matched word, after the section's title; undefined without one. */
function snippet(text, title, terms) {
  const flat = text.replace(/[#*`>|_[\]()]+/g, " ").replace(/\s+/g, " ");
  const lower = flat.toLowerCase();
  const from = Math.max(0, lower.indexOf(title.toLowerCase()));
  const hits = terms.map((term) => lower.indexOf(term, from)).filter((at) => at >= 0);
  if (!hits.length) return undefined;
  const at = Math.min(...hits);
  // From the start of a word, 60 characters or so before the match.
  const start = at > 60 ? flat.indexOf(" ", at - 60) + 1 : 0;
  return `${start > 0 ? "…" : ""}${flat.slice(start, at + 100).trim()}…`;
}

/** The snippet as nodes: its text, each matched word marked. */
function marked(text, terms) {
  const words = new RegExp(`(${terms.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`, "gi");
  return text.split(words).map((part, i) => {
    if (i % 2 === 0) return document.createTextNode(part);
    const mark = document.createElement("mark");
    mark.textContent = part;
    return mark;
  });
}

const show = (results) => {
  list.replaceChildren(
    ...results.slice(0, 8).map(({ title, page, href, terms }) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = href;
      link.innerHTML = "<strong></strong><span></span><span class='snippet'></span>";
      link.children[0].textContent = title;
      link.children[1].textContent = page;
      textOf(href.split("#")[0]).then((text) => {
        const found = snippet(text, title, terms);
        if (found) link.children[2].replaceChildren(...marked(found, terms));
      });
      item.append(link);
      return item;
    }),
  );
  if (!results.length && input.value.trim()) list.innerHTML = "<li class='none'>No page mentions that.</li>";
  list.hidden = !input.value.trim();
};

input.addEventListener("input", async () => {
  const search = await loadIndex();
  // A guide that explains a thing before a reference or a flow that mentions it: a short section titled with the
  // word (a flow, a decision) outscores a guide by about four to one on BM25 alone.
  const boostDocument = (id, term, stored) => (stored?.kind === "g" ? 5 : 1);
  show(search.search(input.value, { prefix: true, fuzzy: 0.2, boost: { title: 2 }, boostDocument }));
});
input.addEventListener("keydown", (event) => {
  if (event.key === "Enter") list.querySelector("a")?.click();
  if (event.key === "Escape") list.hidden = true;
});
document.addEventListener("click", (event) => {
  if (!event.target.closest(".search")) list.hidden = true;
});
