package main

import (
	"context"
	"fmt"
	"os"

	"github.com/urfave/cli/v3"

	"mateline.dev/mateline/puzzles"
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
				return usagef("merge: give the shard output files")
			}
			inputs := cmd.StringSlice("input")
			o := cmd.String("output")
			if err := puzzles.CheckNotInput(o, append(append([]string(nil), paths...), inputs...)); err != nil {
				return usagef("merge: %v: it would be overwritten; write the result elsewhere", err)
			}
			if o == "" {
				n, err := puzzles.Merge(cmd.Root().Writer, paths, inputs)
				if err != nil {
					return fmt.Errorf("merge: %w", err)
				}
				fmt.Fprintf(os.Stderr, "merged %d record(s) from %d shard(s)\n", n, len(paths))
				return nil
			}
			out, err := puzzles.CreateOutput(o, false)
			if err != nil {
				return err
			}
			n, err := puzzles.Merge(out, paths, inputs)
			if err != nil {
				out.Abort()
				return fmt.Errorf("merge: %w (nothing was written to %s)", err, o)
			}
			if err := out.Commit(); err != nil {
				out.Abort()
				return fmt.Errorf("merge: %w", err)
			}
			fmt.Fprintf(os.Stderr, "merged %d record(s) from %d shard(s) into %s\n", n, len(paths), o)
			return nil
		},
	}
}
