/** The relative links of the Markdown files in `files` that name no file of `files`. */
export function deadLinks(files: readonly string[], readText: (path: string) => string): string[];
