/**
 * The V8 flags the built-in data source's process runs with: main's utility process (glue/data-source.ts)
 * and the library bench start it alike. A young generation of at most 2 MB per semi-space: V8 lets it
 * grow to 16 MB each (48 MB committed) under an import's stream of short-lived objects (tags, rows,
 * promises) and keeps it, which was a third of the process's memory with 20,000 songs; the scavenges
 * it costs are cheap (measured: the same CPU time for a 20,000-file import).
 */
export const DATA_SOURCE_EXEC_ARGV = ['--max-semi-space-size=2']
