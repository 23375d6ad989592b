/** The declaration text of src/testing/index.ts (its `source`); throws on a diagnostic or a relative import left in it. */
export function testingDeclarations(source: string): string;
