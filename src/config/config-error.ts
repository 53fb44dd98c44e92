// A configuration problem: one line per problem, each starting with the variable's name, so the
// entry points can print them as they are (`config: PORT: must be a whole number`).
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}
