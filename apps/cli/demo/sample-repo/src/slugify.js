/** Turns a title into a URL slug: "Hello World" -> "hello-world". */
export function slugify(text) {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^a-z0-9]+/g, "-");
}
