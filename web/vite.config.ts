/// <reference types="vitest/config" />
// Builds the browser table into the Python package: src/kafenio/server/static/app/, served by
// `kafenio serve` under /static/app/. The build output is not committed: a .gitignore is
// written into it after every build (hatch_build.py ships it in the wheel as an artifact).
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const outDir = fileURLToPath(new URL("../src/kafenio/server/static/app", import.meta.url));

export default defineConfig({
  base: "/static/app/",
  build: {
    outDir,
    emptyOutDir: true,
    target: "es2022",
  },
  plugins: [
    {
      name: "kafenio-gitignore-build",
      closeBundle() {
        writeFileSync(resolve(outDir, ".gitignore"), "# built by `npm run build` in web/\n*\n");
      },
    },
  ],
  test: {
    environment: "node",
    include: ["tests/**/*.test.ts"],
  },
});
