// Pure text-change computation between two versions of a bill's text.
import { createTwoFilesPatch, diffLines } from 'diff';

/** Unified diffs above this size are cut at a line boundary and flagged diff_truncated. */
export const MAX_DIFF_BYTES = 200 * 1024;
const MAX_HIGHLIGHTS = 6;
const HIGHLIGHT_CHARS = 200;
const MAX_SECTIONS = 50;
// Myers diff is O(N·D); past this many edited lines a pair of unrelated documents would take
// seconds, so the diff falls back to "everything removed, everything added".
const MAX_EDIT_LENGTH = 20_000;

// Headings that state bill drafters use to open a section, article or part.
const HEADING =
  /^\s*((?:SECTION|Section|SEC\.|Sec\.|§+|ARTICLE|Article|PART|Part|CHAPTER|Chapter|TITLE|Title)\s*[0-9IVXLC]+[0-9A-Za-z.-]*)/;

export interface TextChangeStats {
  added_chars: number;
  removed_chars: number;
  added_lines: number;
  removed_lines: number;
  similarity: number;
  is_whitespace_only: boolean;
  changed_sections: string[];
  highlights: Array<{ op: 'added' | 'removed'; text: string }>;
  diff_truncated: boolean;
  diff_unified: string;
}

interface Part {
  value: string;
  added?: boolean;
  removed?: boolean;
  count?: number;
}

function lineParts(a: string, b: string): Part[] {
  const parts = diffLines(a, b, { maxEditLength: MAX_EDIT_LENGTH }) as Part[] | undefined;
  if (parts) return parts;
  return [
    ...(a ? [{ value: a, removed: true, count: countLines(a) }] : []),
    ...(b ? [{ value: b, added: true, count: countLines(b) }] : []),
  ];
}

const countLines = (s: string) => (s === '' ? 0 : s.split('\n').length - (s.endsWith('\n') ? 1 : 0));
const squash = (s: string) => s.replace(/\s+/g, '');

/**
 * Stats of the change from `a` to `b`. Characters and lines are counted on whole changed lines;
 * similarity is the share of characters on unchanged lines (2·same / (|a| + |b|)), 1 for two
 * empty texts. A change whose texts differ only in whitespace (or not at all) is whitespace-only.
 */
export function computeTextChange(a: string, b: string, labels: { from: string; to: string }): TextChangeStats {
  const parts = lineParts(a, b);
  let added = 0,
    removed = 0,
    addedLines = 0,
    removedLines = 0,
    same = 0;
  const sections: string[] = [];
  const highlights: TextChangeStats['highlights'] = [];
  let oldHeading: string | undefined, newHeading: string | undefined;
  const touch = (h: string | undefined) => {
    if (h && sections.length < MAX_SECTIONS && !sections.includes(h)) sections.push(h);
  };
  for (const part of parts) {
    const lines = part.value.split('\n');
    if (part.value.endsWith('\n')) lines.pop();
    if (part.added) {
      added += part.value.length;
      addedLines += part.count ?? lines.length;
    } else if (part.removed) {
      removed += part.value.length;
      removedLines += part.count ?? lines.length;
    } else {
      same += part.value.length;
    }
    for (const line of lines) {
      const h = HEADING.exec(line)?.[1]?.replace(/\s+/g, ' ').replace(/\.$/, '');
      if (!part.added && h) oldHeading = h;
      if (!part.removed && h) newHeading = h;
      if (part.added && line.trim()) touch(newHeading);
      if (part.removed && line.trim()) touch(oldHeading);
    }
    if ((part.added || part.removed) && highlights.length < MAX_HIGHLIGHTS) {
      const snippet = part.value.replace(/\s+/g, ' ').trim();
      if (snippet)
        highlights.push({
          op: part.added ? 'added' : 'removed',
          text: snippet.length > HIGHLIGHT_CHARS ? snippet.slice(0, HIGHLIGHT_CHARS - 1) + '…' : snippet,
        });
    }
  }
  const total = a.length + b.length;
  const similarity = total === 0 ? 1 : Math.round(((2 * same) / total) * 10_000) / 10_000;
  let unified =
    createTwoFilesPatch(labels.from, labels.to, a, b, undefined, undefined, {
      context: 3,
      maxEditLength: MAX_EDIT_LENGTH,
    }) ?? '';
  if (!unified && a !== b)
    unified = `--- ${labels.from}\n+++ ${labels.to}\n(the versions differ too much for a line diff)\n`;
  let truncated = false;
  if (Buffer.byteLength(unified) > MAX_DIFF_BYTES) {
    truncated = true;
    const cut = Buffer.from(unified).subarray(0, MAX_DIFF_BYTES).toString('utf8');
    unified = cut.slice(0, Math.max(0, cut.lastIndexOf('\n') + 1)) + '\\ diff truncated at 200 KB\n';
  }
  return {
    added_chars: added,
    removed_chars: removed,
    added_lines: addedLines,
    removed_lines: removedLines,
    similarity,
    is_whitespace_only: squash(a) === squash(b),
    changed_sections: sections,
    highlights,
    diff_truncated: truncated,
    diff_unified: unified,
  };
}
