// Runs the Khronos glTF validator on every GLB given; prints one JSON line per file and exits
// 1 if any has an error.
const fs = require("fs");
const validator = require("gltf-validator");

(async () => {
  let failed = false;
  for (const file of process.argv.slice(2)) {
    const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), { maxIssues: 50 });
    const errors = report.issues.messages.filter((m) => m.severity === 0);
    console.log(JSON.stringify({ file, errors: report.issues.numErrors, warnings: report.issues.numWarnings, first: errors.slice(0, 5) }));
    if (report.issues.numErrors > 0) failed = true;
  }
  process.exit(failed ? 1 : 0);
})().catch((e) => {
  console.error(e);
  process.exit(2);
});
