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
		Description: "Give every shard's output file (jsonl, csv or epd, one per shard: n files for\n" +
			"--shard i/n). merge checks that each file holds exactly one shard, that every shard\n" +
			"is present and that no id appears twice. With --input (the puzzle files the shards\n" +
			"read) the result follows input order; without, shards are joined in order.\n\n" +
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
			out := cmd.Root().Writer
			if o := cmd.String("output"); o != "" {
				f, err := os.Create(o)
				if err != nil {
					return err
				}
				defer f.Close()
				out = f
			}
			n, err := puzzles.Merge(out, paths, cmd.StringSlice("input"))
			if err != nil {
				return fmt.Errorf("merge: %w", err)
			}
			fmt.Fprintf(os.Stderr, "merged %d record(s) from %d shard(s)\n", n, len(paths))
			return nil
		},
	}
}
