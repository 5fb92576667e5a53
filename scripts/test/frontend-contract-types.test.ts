import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from '@cartable/stack/processes';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The frontends speak the API in the contracts' words (docs/frontends.md): every API type comes
 * from libs/contracts (`import type`, which costs a page no byte), and an answer is named by its
 * contract type, never spelled at the call. A type written again by hand drifts from the schema
 * the services answer with; this test finds the two ways it happens.
 */
const SOURCES = ['frontends/shell/src', 'frontends/catalog/src', 'frontends/admin/src', 'libs/ui/src'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return files(path);
    return /\.tsx?$/.test(entry) ? [path] : [];
  });
}

/** The names of the types the contracts export (what `import type { … } from '@cartable/contracts'` can name). */
function contractTypeNames(): Set<string> {
  const entry = join(repoRoot, 'libs/contracts/src/index.ts');
  const program = ts.createProgram([entry], {
    allowImportingTsExtensions: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error('libs/contracts/src/index.ts introuvable');
  const names = new Set<string>();
  for (const symbol of checker.getExportsOfModule(module)) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    if (target.flags & (ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Interface)) names.add(symbol.name);
  }
  return names;
}

const API_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'upload']);

/** Is this a type spelled in place: `{ … }`, `{ … }[]`, `Array<{ … }>`, `Partial<{ … }>`…? */
function spelledInline(node: ts.TypeNode): boolean {
  if (ts.isTypeLiteralNode(node)) return true;
  if (ts.isArrayTypeNode(node)) return spelledInline(node.elementType);
  if (ts.isIntersectionTypeNode(node) || ts.isUnionTypeNode(node)) return node.types.some(spelledInline);
  if (ts.isTypeReferenceNode(node)) return (node.typeArguments ?? []).some(spelledInline);
  return false;
}

interface Finding {
  declared: string[];
  inline: string[];
}

function scan(file: string, contractNames: Set<string>): Finding {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const where = (node: ts.Node) =>
    `${relative(repoRoot, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const found: Finding = { declared: [], inline: [] };
  const visit = (node: ts.Node) => {
    if ((ts.isTypeAliasDeclaration(node) || ts.isInterfaceDeclaration(node)) && contractNames.has(node.name.text)) {
      found.declared.push(`${where(node)} declares ${node.name.text}`);
    }
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ts.isIdentifier(node.expression.expression) &&
      node.expression.expression.text === 'api' &&
      API_METHODS.has(node.expression.name.text) &&
      node.typeArguments?.some(spelledInline)
    ) {
      found.inline.push(`${where(node)} api.${node.expression.name.text}<${node.typeArguments[0]?.getText()}>`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the frontends use the contracts’ types', () => {
  const contractNames = contractTypeNames();
  const findings = SOURCES.flatMap((dir) => files(join(repoRoot, dir))).map((file) => scan(file, contractNames));

  it('knows the contracts’ types', () => {
    for (const name of ['Book', 'User', 'LoginResponse', 'Banner', 'BannersResponse']) {
      expect(contractNames.has(name), name).toBe(true);
    }
  });

  it('declares no type or interface under a name the contracts export', () => {
    expect(findings.flatMap((f) => f.declared)).toEqual([]);
  });

  it('names every answer of the API client by a type instead of spelling its shape', () => {
    expect(findings.flatMap((f) => f.inline)).toEqual([]);
  });

  it('catches both in a file that does them', () => {
    const fixture = join(repoRoot, 'scripts/test/fixtures/contract-types/duplicates.ts');
    const { declared, inline } = scan(fixture, contractNames);
    expect(declared).toEqual([
      'scripts/test/fixtures/contract-types/duplicates.ts:5 declares Book',
      'scripts/test/fixtures/contract-types/duplicates.ts:8 declares Banner',
    ]);
    expect(inline).toEqual([
      'scripts/test/fixtures/contract-types/duplicates.ts:13 api.get<{ banners: Banner[] }>',
      'scripts/test/fixtures/contract-types/duplicates.ts:14 api.post<Partial<{ book: Book }>>',
    ]);
  });
});
