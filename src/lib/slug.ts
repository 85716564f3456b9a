// GitHub's anchors of Markdown headings, which the docs site gives its pages' headings too, and
// by which the docs' sections are found (src/lib/docs-sections.ts) on either side.

/**
 * GitHub's anchor for a heading's text (as github-slugger makes it): lower case, every
 * character that is not a letter, mark, digit, connector (`_`), hyphen or space dropped, each
 * space a hyphen.
 */
export const githubSlug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\- ]/gu, "")
    .replace(/ /g, "-");

/** GitHub's anchors within one file: a repeated heading gets `-1`, `-2`, … */
export class Slugger {
  readonly #seen = new Map<string, number>();
  slug(text: string): string {
    const base = githubSlug(text);
    let slug = base;
    while (this.#seen.has(slug)) {
      const n = this.#seen.get(base)! + 1;
      this.#seen.set(base, n);
      slug = `${base}-${n}`;
    }
    this.#seen.set(slug, 0);
    return slug;
  }
}
