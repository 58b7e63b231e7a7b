// Makes `require("vscode")` load the test double (out/test/vscodeMock.js) when tests run under plain Node.
const Module = require("module");
const path = require("path");

const mockPath = path.join(__dirname, "..", "out", "test", "vscodeMock.js");
const originalResolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === "vscode") {
    return mockPath;
  }
  return originalResolve.call(this, request, ...rest);
};
