// Runs a Python script under the real MicroPython interpreter (WebAssembly build from npm),
// with the repository's MicroPython-subset modules on its path:
//   node micropython_runner.mjs REPO_ROOT SCRIPT.py
// The firmware_bridge codec, firmwares and stub hardware are copied into MicroPython's
// in-memory filesystem under /lib. The script's output goes to stdout; a Python exception
// makes runPython() throw PythonError, which exits 1 with the traceback on stderr (the
// package's own command line would exit 0).
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const [root, script] = process.argv.slice(2);
if (!root || !script) {
  console.error("usage: node micropython_runner.mjs REPO_ROOT SCRIPT.py");
  process.exit(2);
}

const mp = await loadMicroPython({
  heapsize: 8 * 1024 * 1024,
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});

function copyPackage(relative, only) {
  const dest = join("/lib", relative);
  const parts = dest.split("/").filter(Boolean);
  let path = "";
  for (const part of parts) {
    path += "/" + part;
    try { mp.FS.mkdir(path); } catch { /* exists */ }
  }
  for (const name of readdirSync(join(root, relative))) {
    if (!name.endsWith(".py") && !name.endsWith(".json")) continue;
    if (only && !only.includes(name)) continue;
    mp.FS.writeFile(join(dest, name), readFileSync(join(root, relative, name)));
  }
}

// Exactly what the boards get (plus the stub hardware): no host-only modules. The light
// board's firmware and codec; the fairness jig's firmware and the schedule it shares.
copyPackage("firmware_bridge", ["__init__.py", "codec.py", "fairness.py"]);
copyPackage("firmware_bridge/firmware", null);
copyPackage("firmware_bridge/jig", null);
copyPackage("firmware_bridge/sim", ["hardware.py"]);
mp.FS.writeFile("/lib/firmware_bridge/sim/__init__.py", "");
mp.FS.unlink("/lib/firmware_bridge/firmware/interfaces.py");
mp.FS.unlink("/lib/firmware_bridge/jig/interfaces.py");
// The scripted host the scripts share (CPython finds it beside them).
mp.FS.writeFile(
  "/lib/mp_wire.py", readFileSync(join(root, "tests/firmware_bridge/mp_scripts/mp_wire.py"))
);

try {
  mp.runPython(readFileSync(script, "utf8"));
} catch (err) {
  if (err && err.constructor && err.constructor.name === "PythonError") {
    process.stderr.write(String(err.message) + "\n");
    process.exit(1);
  }
  throw err;
}
