package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v3"

	"mateline.dev/mateline/batch"
)

func mergeCommand() *cli.Command {
	return &cli.Command{
		Name:      "merge",
		Usage:     "join the outputs of a sharded run (--shard i/n) into one file",
		ArgsUsage: "SHARD_OUTPUT...",
		Description: "Give every shard's output file (jsonl, csv or epd): each says which shard it holds\n" +
			"('i/n', written by --shard), and merge refuses a set where a shard is missing or given\n" +
			"twice, naming it ('shard 1/3 missing'), a record in the wrong shard's file, or an id\n" +
			"that appears twice. With --input (the puzzle files the shards read) the result follows\n" +
			"input order; without, shards are joined in order. With -o the result is written to\n" +
			"FILE.partial and renamed at the end: a failed merge leaves no partial output.\n\n" +
			"Example: mateline merge --input puzzles.csv -o all.jsonl out-0.jsonl out-1.jsonl out-2.jsonl",
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "input", Usage: "a puzzle file the shards read (repeatable, in the same order)"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the merged output here instead of standard output"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			paths := cmd.Args().Slice()
			if len(paths) == 0 {
				return batch.Usagef("merge: give the shard output files")
			}
			inputs, o := cmd.StringSlice("input"), cmd.String("output")
			var n int
			var err error
			if o == "" {
				n, err = batch.Merge(cmd.Root().Writer, paths, inputs)
			} else {
				n, err = batch.MergeToFile(o, paths, inputs)
			}
			var ue batch.UsageError
			switch {
			case errors.As(err, &ue):
				return err
			case err != nil:
				return fmt.Errorf("merge: %w", err)
			case o == "":
				fmt.Fprintf(os.Stderr, "merged %d record(s) from %d shard(s)\n", n, len(paths))
			default:
				fmt.Fprintf(os.Stderr, "merged %d record(s) from %d shard(s) into %s\n", n, len(paths), o)
			}
			return nil
		},
	}
}
