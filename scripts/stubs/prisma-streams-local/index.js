// `prisma dev` is not used by this project (see docs/decisions.md, "Node 20, 22 and 24").
throw new Error('@prisma/streams-local is not installed: this project does not run `prisma dev`');
