// How the site's drawings read in the window they are shown in, checked in the page
// (`page.evaluate`): each function is self-contained and returns what is wrong, one line each.

/**
 * The state diagrams (scripts/docs/diagrams.ts): one drawing shown, whole, unscaled, nothing
 * overlapping; at a phone's width its text the body's size.
 */
export function stateDiagramProblems(): string[] {
  const problems: string[] = [];
  const width = document.documentElement.clientWidth;
  const body = parseFloat(getComputedStyle(document.querySelector("main p")!).fontSize);
  const overlap = (a: DOMRect, b: DOMRect) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const figures = [...document.querySelectorAll<HTMLElement>("figure.diagram")];
  if (!figures.length) problems.push("no state diagram");
  for (const figure of figures) {
    const shown = [...figure.querySelectorAll("svg")].filter((svg) => svg.checkVisibility());
    const name = figure.querySelector("svg title")?.textContent ?? "a state diagram";
    if (shown.length !== 1) {
      problems.push(`${name}: ${shown.length} drawings shown`);
      continue;
    }
    const svg = shown[0]!;
    const box = svg.getBoundingClientRect();
    const frame = figure.getBoundingClientRect();
    if (box.left < Math.max(frame.left, 0) - 0.5 || box.right > Math.min(frame.right, width) + 0.5)
      problems.push(`${name}: drawn at ${Math.round(box.left)}..${Math.round(box.right)}, outside its figure or the window`);
    if (figure.scrollWidth > figure.clientWidth + 1) problems.push(`${name}: its figure scrolls sideways`);
    const scale = box.width / svg.viewBox.baseVal.width;
    if (scale < 0.97) problems.push(`${name}: shrunk to ${scale.toFixed(2)} of its size`);
    const texts = [...svg.querySelectorAll("text")].map((t) => ({ text: t.textContent!, box: t.getBoundingClientRect() }));
    const outside = texts.filter(
      (t) => t.box.left < box.left || t.box.right > box.right || t.box.top < box.top || t.box.bottom > box.bottom,
    );
    if (outside.length) problems.push(`${name}: text cut at the drawing's edge: ${outside.map((t) => t.text).join(", ")}`);
    if (width < 830) {
      const smallest = Math.min(...texts.map((t) => t.box.height));
      if (smallest < body * 0.95) problems.push(`${name}: its smallest text is ${smallest.toFixed(1)} px high, the body's ${body} px`);
    }
    for (const [i, a] of texts.entries())
      for (const b of texts.slice(i + 1)) if (overlap(a.box, b.box)) problems.push(`${name}: "${a.text}" overlaps "${b.text}"`);
    // A state's name is in its box; every other text is clear of every box.
    const boxes = [...svg.querySelectorAll(".states rect")].map((r) => r.getBoundingClientRect());
    const names = new Set([...svg.querySelectorAll(".names text")].map((t) => t.textContent));
    for (const t of texts.filter((t) => !names.has(t.text)))
      if (boxes.some((b) => overlap(t.box, b))) problems.push(`${name}: "${t.text}" lies on a state`);
  }
  return problems;
}

/**
 * The flows' sequence diagrams (scripts/docs/sequence-diagram.ts): one drawing shown per
 * workflow, inside the window, with no text across a lifeline or over another, in characters
 * every font has, at the body's size; on a wide screen, as wide as its column.
 */
export function sequenceProblems(): string[] {
  const problems: string[] = [];
  const width = document.documentElement.clientWidth;
  const overlap = (a: DOMRect, b: DOMRect) =>
    a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const sections = [...document.querySelectorAll<HTMLElement>("section.workflow")];
  if (!sections.length) problems.push("no workflow");
  for (const section of sections) {
    const shown = [...section.querySelectorAll<SVGSVGElement>("svg.sequence")].filter((svg) => svg.checkVisibility());
    if (shown.length !== 1) {
      problems.push(`${section.id}: ${shown.length} drawings shown`);
      continue;
    }
    const svg = shown[0]!;
    const box = svg.getBoundingClientRect();
    if (box.left < 0 || box.right > width + 0.5) problems.push(`${section.id}: drawn at ${Math.round(box.left)}..${Math.round(box.right)}`);
    const column = section.getBoundingClientRect().width;
    if (width >= 1280 && box.width < column * 0.9)
      problems.push(`${section.id}: ${Math.round(box.width)} px wide in a ${Math.round(column)} px column`);
    const body = parseFloat(getComputedStyle(section.querySelector("p")!).fontSize);
    const texts = [...svg.querySelectorAll("text")].map((t) => ({ text: t.textContent!, box: t.getBoundingClientRect() }));
    const smallest = Math.min(...texts.map((t) => t.box.height));
    if (smallest < body * 0.95) problems.push(`${section.id}: its smallest text is ${smallest.toFixed(1)} px high, the body's ${body} px`);
    const lifelines = [...svg.querySelectorAll(".lifeline line")].map((l) => l.getBoundingClientRect());
    if (lifelines.length < 2) problems.push(`${section.id}: ${lifelines.length} lifelines`);
    for (const t of texts) {
      // A lifeline is a line 2 px wide: its box, widened to a pixel either side.
      const crossed = lifelines.filter((l) => overlap(t.box, new DOMRect(l.left - 1, l.top, l.width + 2, l.height)));
      if (crossed.length) problems.push(`${section.id}: "${t.text}" runs across a lifeline`);
      if (t.box.left < box.left || t.box.right > box.right) problems.push(`${section.id}: "${t.text}" is cut at the drawing's edge`);
      if (/[^\u0020-\u007e\u00a0-\u017f\u2010-\u2026]/u.test(t.text))
        problems.push(`${section.id}: "${t.text}" has a character a font may lack`);
    }
    for (const [i, a] of texts.entries())
      for (const b of texts.slice(i + 1)) if (overlap(a.box, b.box)) problems.push(`${section.id}: "${a.text}" overlaps "${b.text}"`);
  }
  return problems;
}
