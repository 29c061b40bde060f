import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

// What the package tests read of Markdown: links, the anchors headings make, code spans and paragraphs. Enough of
// CommonMark for the documents the package ships; code (fenced or inline) never holds a link.

export interface MarkdownLink {
  target: string;
  /** 1-based. */
  line: number;
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/** The text's lines with every fenced code block blanked, so line numbers stay those of the file. */
function proseLines(text: string): string[] {
  let fence: string | undefined;
  return text.split('\n').map((line) => {
    const marker = FENCE.exec(line)?.[1];
    if (fence === undefined) {
      if (marker === undefined) return line;
      fence = marker;
      return '';
    }
    if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker)
      fence = undefined;
    return '';
  });
}

const CODE_SPAN = /(`+)([\s\S]*?[^`])\1(?!`)/g;
const withoutCodeSpans = (line: string) => line.replace(CODE_SPAN, (span) => ' '.repeat(span.length));

// [text](target "title") and ![alt](target), a target in <...> or without spaces; [id]: target definitions; HTML.
const INLINE_LINK = /!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
const DEFINITION = /^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/;
const HTML_ATTRIBUTE = /\b(?:href|src)\s*=\s*("[^"]*"|'[^']*')/gi;

/** Every link and image target in the text, outside code. */
export function markdownLinks(text: string): MarkdownLink[] {
  return proseLines(text).flatMap((raw, index) => {
    const line = withoutCodeSpans(raw);
    const targets = [
      ...[...line.matchAll(INLINE_LINK)].map((match) => match[1] as string),
      ...[...line.matchAll(HTML_ATTRIBUTE)].map((match) => (match[1] as string).slice(1, -1)),
      ...[DEFINITION.exec(line)?.[1]].filter((target) => target !== undefined),
    ];
    return targets.map((target) => ({ target: target.replace(/^<(.*)>$/, '$1'), line: index + 1 }));
  });
}

/** A link that leaves the document's folder tree: no scheme (`https:`, `mailto:`) and not protocol-relative. */
export const isRelative = (target: string) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('//');

/** The anchors GitHub gives the headings: lower case, punctuation dropped, spaces as `-`, repeats numbered. */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(text)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const words = heading
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .toLowerCase();
    const base = words.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

const markdownFilesUnder = (folder: string): string[] =>
  readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.toLowerCase().endsWith('.md'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();

/**
 * Every relative link of every Markdown file under `folder` (or of `files`, relative to it) that does not resolve inside it: to a file or folder that
 * is missing or outside, or to an anchor its Markdown target has no heading for. Each as `file:line: target (why)`.
 */
export function brokenLinks(folder: string, files: readonly string[] = markdownFilesUnder(folder)): string[] {
  const root = resolve(folder);
  const inside = (path: string) => path === root || path.startsWith(root + sep);
  return files
    .map((file) => resolve(root, file))
    .flatMap((file) => {
      const name = relative(root, file).split(sep).join('/');
      return markdownLinks(readFileSync(file, 'utf8'))
        .filter(({ target }) => isRelative(target))
        .flatMap(({ target, line }) => {
          const broken = (why: string) => [`${name}:${line}: ${target} (${why})`];
          const [pathPart = '', anchor] = target.split('#', 2);
          let path: string;
          try {
            path = decodeURIComponent(pathPart.split('?')[0] as string);
          } catch {
            return broken('not a valid URL');
          }
          const resolved = path === '' ? file : resolve(dirname(file), path);
          if (!inside(resolved)) return broken('outside the package');
          if (!existsSync(resolved)) return broken('no such file in the package');
          const markdown = statSync(resolved).isFile() && resolved.toLowerCase().endsWith('.md');
          if (anchor && markdown && !headingAnchors(readFileSync(resolved, 'utf8')).has(anchor)) {
            return broken('no heading with that anchor');
          }
          return [];
        });
    });
}

/** The text of every inline code span outside code blocks, with the paragraph it is in. */
export function codeSpans(text: string): Array<{ span: string; paragraph: string }> {
  const paragraphs = proseLines(text)
    .join('\n')
    .split(/\n\s*\n/);
  return paragraphs.flatMap((paragraph) =>
    [...paragraph.matchAll(CODE_SPAN)].map((match) => ({ span: (match[2] as string).trim(), paragraph })),
  );
}
