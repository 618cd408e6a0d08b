// Package batch runs solve and validate over puzzle files: a Job checks
// itself (Validate), then Run streams the records through a pool of
// workers, each with its own solver, and writes the outcomes in input
// order through a report writer into the output file. It owns what keeps
// a long run safe: the output written through FILE.partial, --resume from
// whatever a killed run left, shards of a job array selected by a stable
// hash of the id, and the merge of the shards' outputs.
package batch
