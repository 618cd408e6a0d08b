package puzzles

import (
	"fmt"
	"strconv"
	"strings"
)

// ShardEnv are the variables a scheduler sets for a task of a job array,
// in the order they are read: Kubernetes' Indexed Jobs, then Slurm's.
var ShardEnv = []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"}

// ParseShard reads --shard ("i/n"; "/n" or "n" takes i from the
// scheduler's variable). set says whether the flag was given; without it,
// a Slurm array task (SLURM_ARRAY_TASK_ID with SLURM_ARRAY_TASK_COUNT) is
// a shard too. getenv reads the environment.
func ParseShard(flag string, set bool, getenv func(string) string) (Shard, error) {
	envIndex := func() (int, string, error) {
		for _, v := range ShardEnv {
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
			return Shard{}, fmt.Errorf("--shard %q gives no index, and neither %s is set", flag, strings.Join(ShardEnv, " nor "))
		}
	} else if i, err = strconv.Atoi(strings.TrimSpace(iText)); err != nil {
		return Shard{}, fmt.Errorf("--shard %q: want i/n, such as 0/4", flag)
	}
	if i < 0 || i >= n {
		return Shard{}, fmt.Errorf("--shard %d/%d: the index must be 0 to %d", i, n, n-1)
	}
	return Shard{Index: i, Count: n}, nil
}
