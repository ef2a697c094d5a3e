/** A command line the user got wrong: the CLIs print its message and exit 2, without a stack. */
export class UsageError extends Error {}
