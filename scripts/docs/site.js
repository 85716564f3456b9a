// The docs site's one script, on every page: a copy button on every code block, the menu button
// of narrow windows, the search box of the header, over every page (search.js ranks the
// sections of search-index.json), each result with the passage it matched, and the reader's
// language in every code group.

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
let search;

/**
 * The search, made when the reader first types: the sections `npm run build` cut (the ones
 * payin-mcp searches), ranked by the package's own search module (search.js).
 */
const loadSearch = async () =>
  (search ??= fetch("search-index.json")
    .then((answer) => answer.json())
    .then((sections) => window.PayinSearch.createDocsSearch(sections)));

/** The passage as nodes: its text, each word that matched marked (the terms are stems: `register` marks `registering`). */
function marked(text, terms) {
  const words = new RegExp(`\\b((?:${terms.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})\\w*)`, "gi");
  return text.split(words).map((part, i) => {
    if (i % 2 === 0) return document.createTextNode(part);
    const mark = document.createElement("mark");
    mark.textContent = part;
    return mark;
  });
}

const show = (hits) => {
  list.replaceChildren(
    ...hits.map(({ section, terms }) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = section.href;
      link.innerHTML = "<strong></strong><span></span><span class='snippet'></span>";
      link.children[0].textContent = section.title;
      link.children[1].textContent = section.page;
      link.children[2].replaceChildren(...marked(window.PayinSearch.snippet(section.text, terms, 200), terms));
      item.append(link);
      return item;
    }),
  );
  if (!hits.length && input.value.trim()) list.innerHTML = "<li class='none'>No page mentions that.</li>";
  list.hidden = !input.value.trim();
};

input.addEventListener("input", async () => show((await loadSearch()).search(input.value)));
input.addEventListener("keydown", (event) => {
  if (event.key === "Enter") list.querySelector("a")?.click();
  if (event.key === "Escape") list.hidden = true;
});
document.addEventListener("click", (event) => {
  if (!event.target.closest(".search")) list.hidden = true;
});

// Code groups (scripts/docs/code-groups.ts): one snippet in several languages, a tab each. The
// language the reader picks is every group's, on this page and the next (localStorage), and the
// page's address says it (?lang=python), so that a link shared gives its reader the same code. A
// group without that language shows its first, TypeScript.
const LANGUAGE_KEY = "payin-docs-language";
const remembered = () => {
  try {
    return localStorage.getItem(LANGUAGE_KEY);
  } catch {
    return null; // Storage refused (a private window, a policy): the page's address still says it.
  }
};
const remember = (language) => {
  try {
    localStorage.setItem(LANGUAGE_KEY, language);
  } catch {
    // Refused as above: this page shows the choice all the same.
  }
};

const showLanguage = (language) => {
  for (const group of document.querySelectorAll(".code-group")) {
    const panels = [...group.querySelectorAll(".code-panel")];
    const shown = (panels.find((panel) => panel.dataset.lang === language) ?? panels[0]).dataset.lang;
    for (const panel of panels) panel.hidden = panel.dataset.lang !== shown;
    for (const tab of group.querySelectorAll("[role=tab]")) {
      const selected = tab.dataset.lang === shown;
      tab.setAttribute("aria-selected", String(selected));
      tab.tabIndex = selected ? 0 : -1;
    }
  }
};

const chooseLanguage = (language, tab) => {
  // The tab stays where the reader's eye is, though the groups above it change height.
  const before = tab.getBoundingClientRect().top;
  remember(language);
  const address = new URL(location.href);
  address.searchParams.set("lang", language);
  history.replaceState(history.state, "", address);
  showLanguage(language);
  window.scrollBy(0, tab.getBoundingClientRect().top - before);
};

const linked = new URL(location.href).searchParams.get("lang");
if (linked) remember(linked);
showLanguage(linked ?? remembered() ?? "typescript");
for (const list of document.querySelectorAll(".code-group [role=tablist]")) {
  const tabs = [...list.querySelectorAll("[role=tab]")];
  list.addEventListener("click", (event) => {
    const tab = event.target.closest("[role=tab]");
    if (tab) chooseLanguage(tab.dataset.lang, tab);
  });
  // The arrow keys move between the tabs, as in any tab list.
  list.addEventListener("keydown", (event) => {
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (!step) return;
    const next = tabs[(tabs.indexOf(document.activeElement) + step + tabs.length) % tabs.length];
    chooseLanguage(next.dataset.lang, next);
    next.focus();
  });
}
