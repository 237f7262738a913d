/**
 * One copy of every rule (issue 9): the rules the web app, the server and the engine all apply live in
 * packages/shared (plans.ts, rows.ts, rules/). This test reads the other packages' source and fails when
 * one of them grows its own copy again: each rule is known by the marks its implementations leave
 * (a regex literal, a comparison, a constant). A hit names the file, the line and the shared function
 * to call instead. Each mark is also checked against the copy it was written to catch.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const SCANNED = ['apps/web/src', 'apps/server/src', 'packages/engine/src'];

interface Rule {
  name: string;
  use: string;
  mark: RegExp;
  /** Source the mark must catch: a copy that existed before the rule moved to packages/shared. */
  catches: string[];
  /** Files (relative to the repository) where the mark means something else, with the reason. */
  allowed?: Record<string, string>;
  /** Rules about production code only: test files may write plan names freely. */
  sourceOnly?: boolean;
}

const RULES: Rule[] = [
  {
    name: 'plan names compared as strings',
    use: 'entitlements(plan, edition) or PLAN_CATALOGUE from packages/shared/src/plans.ts',
    mark: /[=!]==\s*['"](?:Free|Pro|Enterprise|Offline|Unlicensed)['"]|['"](?:Free|Pro|Enterprise|Offline|Unlicensed)['"]\s*[=!]==|case\s+['"](?:Free|Pro|Enterprise|Offline|Unlicensed)['"]\s*:|\b(?:WATERMARKED_PLANS|PLAN_QUOTAS)\b/,
    catches: ["return plan === 'Pro' || plan === 'Enterprise';", "user.billingPlan === 'Free' ? t('plan.upgrade')", 'WATERMARKED_PLANS.includes(plan)'],
    sourceOnly: true,
  },
  {
    name: 'column matching',
    use: 'columnIndex / hasColumn / firstUnknownTag (rules/columns.ts)',
    mark: /\bhead(?:ing|er)s?\.(?:indexOf|includes)\(|\bhead(?:ing|er)\.trim\(\)\.toLowerCase\(\)|new Set\(head(?:ing|er)s\)|candidate\.toLowerCase\(\) === tag/,
    catches: [
      'return headings !== null && !headings.includes(column);',
      'const loose = headers.findIndex((heading) => heading.trim().toLowerCase() === wanted);',
      'const known = new Set(headings);',
      'headers.find((candidate) => candidate.toLowerCase() === tag.toLowerCase())',
    ],
    allowed: {
      'apps/web/src/features/email/RecipientColumns.tsx': 'a select needs its current value among its options, exactly as stored',
    },
    sourceOnly: true,
  },
  {
    name: 'column tag pattern',
    use: 'columnTags / fillColumnTags (rows.ts), htmlColumnTags / replyToColumn (rules/)',
    mark: /\\\{\\\{/,
    catches: ['const TAG_PATTERN = /\\{\\{\\s*([^{}]+?)\\s*\\}\\}/g;', 'if (/^\\{\\{\\s*[^{}]+?\\s*\\}\\}$/.test(value)) return true;'],
    sourceOnly: true,
  },
  {
    name: 'empty message',
    use: 'isMessageEmpty (rules/content.ts)',
    mark: /<img\\b|\.replace\(\/<br\\s\*\\\/\?>\/gi/,
    catches: ["if (/<img\\b/i.test(html)) return false;", ".replace(/<br\\s*\\/?>/gi, '')"],
    sourceOnly: true,
  },
  {
    name: 'sender identifier',
    use: 'identifierProblem (rules/senders.ts)',
    mark: /\[\\p\{L\}[^\]\n]*&[^\]\n]*\]/,
    catches: ["const IDENTIFIER = /^[\\p{L}\\p{N} .,'_&-]{1,64}$/u;", "const IDENTIFIER_PATTERN = /^[\\p{L}\\p{M}\\p{N} .,'\\-_&]{1,64}$/u;"],
    sourceOnly: true,
  },
  {
    name: 'SMTP port',
    use: 'parsePort (rules/senders.ts)',
    mark: /SMTP_PORT_(?:RANGE|MIN|MAX)|\/\^\\s\*\\d\{1,\d\}|\/\^\\d\{1,\d\}\$\/\.test\(\w*\.trim\(\)\)/,
    catches: ["if (!/^\\d{1,5}$/.test(value.trim())) return null;", 'value >= SMTP_PORT_RANGE.min', "/^\\s*\\d{1,6}\\s*$/.test(port)"],
    sourceOnly: true,
  },
  {
    name: 'host names and subdomains',
    use: 'parseServerName / parseSubdomain (rules/senders.ts)',
    mark: /\[a-z0-9-\]\{1,63\}|\[A-Za-z0-9\](?:\(\?:)?\[A-Za-z0-9-\]\{0,61\}|\bSUBDOMAIN\w*\s*=\s*\/|\.test\(\w*ubdomain\)/,
    catches: ['const SUBDOMAIN_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;', 'const HOST_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;', 'const SUBDOMAIN = /^[A-Za-z0-9.-]+$/;'],
    allowed: {
      'apps/server/src/adapters/net/safe-host.ts': 'the SSRF guard parses the host the way a resolver will connect to it; the form rule is parseServerName',
    },
    sourceOnly: true,
  },
  {
    name: 'password characters',
    use: 'isValidPasswordPattern / PASSWORD_CHARACTERS (rows.ts)',
    mark: /\[[^\]\n]*!@#\$%\^&\*\(\)\]/,
    catches: ['const PASSWORD_CHARACTERS = /^[A-Za-z0-9!@#$%^&*()]*$/;'],
    sourceOnly: true,
  },
  {
    name: 'account passwords',
    use: 'accountPasswordProblem (rules/passwords.ts)',
    mark: /COMMON_PASSWORDS|['"]qwerty['"]/,
    catches: ["const COMMON_PASSWORDS = new Set([", "'abc123', 'abcdef', 'qwerty', 'qwerty123',"],
    sourceOnly: true,
  },
  {
    name: 'row ranges',
    use: 'rangeBounds / rowPicker / countSelectedRows (rules/rows.ts), parseRowList (rows.ts)',
    mark: /Math\.(?:min|max)\(\s*[\w.]*startRow\s*,\s*[\w.]*endRow|\.split\(['"]-['"]\)\.length|specificRows\w*\.split\(/,
    catches: ['const low = Math.min(selection.startRow, selection.endRow);', 'const low = Math.min(startRow, endRow);'],
    sourceOnly: true,
  },
  {
    name: 'addresses',
    use: 'isValidEmail (api/users.ts), addressesOf / isValidReplyTo (rules/recipients.ts)',
    mark: /\[\^\\s@[^\]\n]*\]\+@|\.split\(\/\[\\s,;\]/,
    catches: ["for (const part of text.split(/[\\s,;]+/)) {", 'const EMAIL = /^[^\\s@]+@[^\\s@]+$/;'],
    sourceOnly: true,
  },
];

function sourceFiles(folder: string): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(?:ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts')) found.push(full);
    }
  };
  walk(join(ROOT, folder));
  return found;
}

const isTestFile = (path: string) => /\.test\.tsx?$|\/test\/|test-support|test-pixels/.test(path);
const files = SCANNED.flatMap(sourceFiles).map((full) => ({ path: relative(ROOT, full), text: readFileSync(full, 'utf8') }));

describe('one copy of every rule', () => {
  it('scans the web app, the server and the engine', () => {
    expect(files.filter((file) => file.path.startsWith('apps/web/src/')).length).toBeGreaterThan(50);
    expect(files.filter((file) => file.path.startsWith('apps/server/src/')).length).toBeGreaterThan(50);
    expect(files.filter((file) => file.path.startsWith('packages/engine/src/')).length).toBeGreaterThan(20);
  });

  for (const rule of RULES) {
    it(`keeps "${rule.name}" in packages/shared only`, () => {
      for (const copy of rule.catches) expect(rule.mark.test(copy), `the mark of "${rule.name}" must catch: ${copy}`).toBe(true);
      const hits: string[] = [];
      for (const file of files) {
        if (rule.allowed?.[file.path] || (rule.sourceOnly && isTestFile(file.path))) continue;
        file.text.split('\n').forEach((line, index) => {
          if (rule.mark.test(line)) hits.push(`${file.path}:${index + 1}: ${line.trim()}`);
        });
      }
      expect(hits, `re-implemented outside packages/shared; call ${rule.use}`).toEqual([]);
    });
  }
});
