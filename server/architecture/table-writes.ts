import ts from 'typescript';

/**
 * Finds the statements of a TypeScript file that write a table: Kysely's write builders
 * (`insertInto`, `updateTable`, `deleteFrom`, `replaceInto`, `mergeInto`), db/compiled.ts's
 * `insertRow`, and SQL text in strings and templates (`INSERT [OR ...] INTO`, `REPLACE INTO`,
 * `UPDATE [OR ...] x SET`, `DELETE FROM`). Comments are not code, so they never count.
 */

export interface TableWrite {
  /** The table as Kysely names it (camelCase); null when it is only known at run time. */
  table: string | null;
  line: number;
  /** The statement's words, for the failure message. */
  text: string;
}

const BUILDERS = new Set(['insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'mergeInto']);
const SQL_WRITE = /\b(insert(?:\s+or\s+\w+)?\s+into|replace\s+into|delete\s+from|update(?:\s+or\s+\w+)?)\s+(?:"(\w+)"|`(\w+)`|(\w+)|⟦(\d+)⟧)(\s+set\b)?/gi;

/** snake_case (SQL, through Kysely's CamelCasePlugin) -> camelCase (Kysely). */
export const camelOf = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
/** camelCase -> snake_case, as the CamelCasePlugin writes it. */
export const snakeOf = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The table names of the `DB` interface in db/schema.ts's text. */
export function schemaTables(schemaSource: string): string[] {
  const file = ts.createSourceFile('schema.ts', schemaSource, ts.ScriptTarget.Latest, true);
  const db = file.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'DB');
  if (!db) throw new Error('db/schema.ts has no interface DB');
  return db.members.flatMap((m) => (ts.isPropertySignature(m) && ts.isIdentifier(m.name) ? [m.name.text] : []));
}

/**
 * Every table write in `source`. `tables` are the schema's (camelCase) names: SQL text that names
 * anything else (a CTE, English words after "delete from") is not a table write.
 */
export function findTableWrites(fileName: string, source: string, tables: readonly string[]): TableWrite[] {
  const known = new Set(tables);
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const writes: TableWrite[] = [];
  const lineOf = (node: ts.Node) => file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
  const literal = (node: ts.Node | undefined) => (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : null);
  /** A table named in code: 'tasks', 'tasks as t', sql.table('tasks'), sql.id('task_tags'). */
  const tableIn = (node: ts.Node | undefined): string | null => {
    const text = literal(node);
    if (text !== null) return camelOf(text.trim().split(/\s+/)[0]);
    if (node && ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ['table', 'id'].includes(node.expression.name.text)) {
      return tableIn(node.arguments[0]);
    }
    return null;
  };
  const sqlText = (node: ts.Node, text: string, substitutions: ts.Expression[]) => {
    for (const m of text.matchAll(SQL_WRITE)) {
      const [whole, verb, quoted, backticked, bare, slot, set] = m;
      if (/^update/i.test(verb) && !set) continue;
      let table: string | null;
      if (slot !== undefined) table = tableIn(substitutions[Number(slot)]);
      else table = camelOf(quoted ?? backticked ?? bare);
      if (table !== null && !known.has(table)) continue;
      writes.push({ table, line: lineOf(node), text: whole.replace(/⟦\d+⟧/, '${...}').replace(/\s+/g, ' ') });
    }
  };
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : null;
      if (name !== null && BUILDERS.has(name) && ts.isPropertyAccessExpression(callee)) {
        writes.push({ table: tableIn(node.arguments[0]), line: lineOf(node), text: `${name}(${node.arguments[0]?.getText(file) ?? ''})` });
      } else if (name === 'insertRow' && node.arguments.length >= 3) {
        writes.push({ table: tableIn(node.arguments[1]), line: lineOf(node), text: `insertRow(${node.arguments[1].getText(file)})` });
      }
    } else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      sqlText(node, node.text, []);
    } else if (ts.isTemplateExpression(node)) {
      let text = node.head.text;
      node.templateSpans.forEach((span, i) => (text += `⟦${i}⟧${span.literal.text}`));
      sqlText(node, text, node.templateSpans.map((s) => s.expression));
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return writes;
}
