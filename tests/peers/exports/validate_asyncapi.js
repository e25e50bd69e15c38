// Validates AsyncAPI documents with the official parser (@asyncapi/parser) and prints every
// diagnostic. Usage: node validate_asyncapi.js FILE...
// Exit status: 0 when no document has an error, 1 otherwise, 2 when a file cannot be read.
'use strict';
const fs = require('fs');
const { Parser } = require('@asyncapi/parser');

const SEVERITY = ['error', 'warning', 'info', 'hint'];

async function main(files) {
  const parser = new Parser();
  let errors = 0;
  for (const file of files) {
    let text;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      console.error(`${file}: cannot read: ${e.message}`);
      process.exit(2);
    }
    const { document, diagnostics } = await parser.parse(text, { source: file });
    const counts = [0, 0, 0, 0];
    for (const d of diagnostics) {
      counts[d.severity] += 1;
      const where = (d.path || []).join('.');
      console.log(`${file}: ${SEVERITY[d.severity] || d.severity}: ${d.code}: ${d.message}${where ? ` at ${where}` : ''}`);
    }
    if (!document) counts[0] = Math.max(counts[0], 1);
    errors += counts[0];
    console.log(`${file}: ${counts[0]} errors, ${counts[1]} warnings, ${counts[2]} infos, ${counts[3]} hints${document ? ', parsed' : ', NOT parsed'}`);
  }
  process.exit(errors === 0 ? 0 : 1);
}

main(process.argv.slice(2)).catch((e) => {
  console.error(e && e.stack ? e.stack : String(e));
  process.exit(1);
});
