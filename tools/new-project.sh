#!/usr/bin/env bash
# Scaffolds an Nx project: tools/new-project.sh <root> <name> <tags-comma-separated> [app]
set -euo pipefail
root=$1 name=$2 tags=$3 kind=${4:-lib}
mkdir -p "$root/src"
rel=$(realpath --relative-to="$root" .)
tags_json=$(printf '%s' "$tags" | awk -F, '{for(i=1;i<=NF;i++){printf "%s\"%s\"", (i>1?", ":""), $i}}')
build=''
if [ "$kind" = app ]; then
  build='"build": {
      "executor": "nx:run-commands",
      "options": { "command": "node tools/build/build-app.mjs '"$root"'" }
    },
    '
fi
cat > "$root/project.json" <<JSON
{
  "name": "$name",
  "\$schema": "$rel/node_modules/nx/schemas/project-schema.json",
  "sourceRoot": "$root/src",
  "projectType": "$([ "$kind" = app ] && echo application || echo library)",
  "tags": [$tags_json],
  "targets": {
    ${build}"lint": { "executor": "@nx/eslint:lint" },
    "typecheck": {
      "executor": "nx:run-commands",
      "options": { "command": "tsc -p $root/tsconfig.json --noEmit" }
    },
    "test": {
      "executor": "@nx/jest:jest",
      "options": { "jestConfig": "$root/jest.config.cjs" }
    }
  }
}
JSON
cat > "$root/tsconfig.json" <<JSON
{
  "extends": "$rel/tsconfig.base.json",
  "compilerOptions": { "types": ["node", "jest"] },
  "include": ["src/**/*.ts", "test/**/*.ts"]
}
JSON
cat > "$root/jest.config.cjs" <<JS
module.exports = {
  ...require('$rel/jest.preset.cjs'),
  displayName: '$name',
  rootDir: __dirname,
};
JS
