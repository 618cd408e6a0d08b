package batch

import (
	"fmt"
	"strconv"
	"strings"

	"mateline.dev/mateline/record"
)

// Shard selects the records of shard Index out of Count by the hash of
// their id, so the split is stable across runs and machines.
type Shard struct{ Index, Count int }

// Contains reports whether the record with this id belongs to the shard.
func (s Shard) Contains(id string) bool {
	return s.Count <= 1 || int(record.IDHash(id)%uint64(s.Count)) == s.Index
}

// String is "i/n", as --shard takes it.
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// label is the shard's "i/n" for a sharded run's markers, "" for a run
// that is not sharded.
func (s Shard) label() string {
	if s.Count <= 1 {
		return ""
	}
	return s.String()
}

// parseShardLabel reads the "i/n" of a shard marker ("" for none: the
// zero Shard).
func parseShardLabel(text string) (Shard, error) {
	if text == "" {
		return Shard{}, nil
	}
	i, n, ok := strings.Cut(strings.TrimSpace(text), "/")
	if !ok {
		return Shard{}, fmt.Errorf("bad shard marker %q", text)
	}
	var sh Shard
	var err1, err2 error
	sh.Index, err1 = strconv.Atoi(i)
	sh.Count, err2 = strconv.Atoi(n)
	if err1 != nil || err2 != nil || sh.Count < 1 || sh.Index < 0 || sh.Index >= sh.Count {
		return Shard{}, fmt.Errorf("bad shard marker %q", text)
	}
	return sh, nil
}

// shardEnv are the variables a scheduler sets for a task of a job array,
// in the order they are read: Kubernetes' Indexed Jobs, then Slurm's.
var shardEnv = []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"}

// ParseShard reads --shard ("i/n"; "/n" or "n" takes i from the
// scheduler's variable). set says whether the flag was given; without it,
// a Slurm array task (SLURM_ARRAY_TASK_ID with SLURM_ARRAY_TASK_COUNT) is
// a shard too. getenv reads the environment.
func ParseShard(flag string, set bool, getenv func(string) string) (Shard, error) {
	envIndex := func() (int, string, error) {
		for _, v := range shardEnv {
			s := getenv(v)
			if s == "" {
				continue
			}
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || n < 0 {
				return 0, v, fmt.Errorf("%s=%q is not a shard index (want 0, 1, 2...)", v, s)
			}
			return n, v, nil
		}
		return 0, "", nil
	}
	if !set {
		i, from, err := envIndex()
		if err != nil || from != "SLURM_ARRAY_TASK_ID" {
			return Shard{}, nil // only a Slurm array splits without --shard
		}
		n, err := strconv.Atoi(getenv("SLURM_ARRAY_TASK_COUNT"))
		if err != nil || n < 1 {
			return Shard{}, nil
		}
		if i >= n {
			return Shard{}, fmt.Errorf("SLURM_ARRAY_TASK_ID %d is not below SLURM_ARRAY_TASK_COUNT %d (submit the array as --array=0-%d)", i, n, n-1)
		}
		return Shard{Index: i, Count: n}, nil
	}
	iText, nText, found := strings.Cut(flag, "/")
	if !found {
		iText, nText = "", flag
	}
	n, err := strconv.Atoi(strings.TrimSpace(nText))
	if err != nil || n < 1 {
		return Shard{}, fmt.Errorf("--shard %q: want i/n, such as 0/4", flag)
	}
	var i int
	if strings.TrimSpace(iText) == "" {
		var from string
		i, from, err = envIndex()
		if err != nil {
			return Shard{}, fmt.Errorf("--shard %q: %v", flag, err)
		}
		if from == "" {
			return Shard{}, fmt.Errorf("--shard %q gives no index, and neither %s is set", flag, strings.Join(shardEnv, " nor "))
		}
	} else if i, err = strconv.Atoi(strings.TrimSpace(iText)); err != nil {
		return Shard{}, fmt.Errorf("--shard %q: want i/n, such as 0/4", flag)
	}
	if i < 0 || i >= n {
		return Shard{}, fmt.Errorf("--shard %d/%d: the index must be 0 to %d", i, n, n-1)
	}
	return Shard{Index: i, Count: n}, nil
}
