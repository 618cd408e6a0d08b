package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"mateline.dev/mateline/dtm"
	"mateline.dev/mateline/dtm/tablefile"
)

// tablesPlanCommand is 'tables plan': what a build of the signatures
// needs, in order, and about what it costs, without building anything.
func tablesPlanCommand() *cli.Command {
	return &cli.Command{
		Name:      "plan",
		Usage:     "say what building tables takes: every table needed, in order, its size, disk, time and memory",
		ArgsUsage: "[SIG...]",
		Description: "For the signatures given (every one of up to --men men when none is named) and the tables\n" +
			"their captures and promotions lead to, lists in the order 'tables build' takes them: the\n" +
			"positions per side to move, the tables each reads, whether it is in the cache (then its size on\n" +
			"disk) or not (then about its size), about how long its build takes on two cores and about its\n" +
			"peak memory. Ends with the totals: what is left to build, its time and disk, and the largest\n" +
			"memory any one build needs (five-man tables are built one at a time). Builds nothing.\n" +
			"The estimates come from the whole set built on this project's two-core machine (docs/dtm.md).\n" +
			"Six-man tables (--men 6, or a six-man SIG): the pawnless ones are built in bounded memory\n" +
			"(their time at KQRBvKN's measured speed, a floor for longer mates; their disk at its bytes per\n" +
			"position in format 3); those with pawns by slices: their time the five-man speed per position\n" +
			"(a floor), their memory that of their largest group of slices, their values in scratch files\n" +
			"when they pass the bound ('values_on_disk' and 'scratch_bytes' in the JSON, as for any table\n" +
			"with pawns; a six-man one held in memory takes 'scratch_bytes' for its checkpoint),\n" +
			"docs/dtm.md, \"Six men\". With --memory below 14.5 GiB a pawnless six-man\n" +
			"table's memory is that of a build with two of its bit sets on disk ('sets_on_disk').\n\n" +
			"Example: mateline tables plan KRPvKR\n" +
			"         mateline tables plan --men 5 --json\n" +
			"         mateline tables plan --men 6",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "dtm", Usage: "table directory (default MATELINE_DTM, else mateline/dtm in the user cache directory)"},
			&cli.IntFlag{Name: "men", Value: tablefile.MaxMen, Usage: "plan every signature of at most this many men (3 to 6) when none is named"},
			&cli.BoolFlag{Name: "json", Usage: "write the plan as one JSON object"},
			memoryFlag(),
		},
		Action: runTablesPlan,
	}
}

// planJSON is 'tables plan --json'.
type planJSON struct {
	Dir    string         `json:"dir"`
	Tables []plannedJSON  `json:"tables"`
	Total  planTotalsJSON `json:"total"`
}

type plannedJSON struct {
	Table     string   `json:"table"`
	Men       int      `json:"men"`
	Positions int64    `json:"positions_per_side"`
	Reads     []string `json:"reads"`
	Built     bool     `json:"built"`
	Bytes     int64    `json:"bytes"` // on disk, or about what it will take
	Seconds   float64  `json:"seconds"`
	Memory    int64    `json:"memory_bytes"`
	OnDisk    bool     `json:"sets_on_disk,omitempty"`
	// a build of a table with pawns with its values in scratch files,
	// which take scratch_bytes of disk while it runs (a six-man one held
	// in memory takes as much for its checkpoint, values_on_disk false)
	ValuesOnDisk bool   `json:"values_on_disk,omitempty"`
	Scratch      int64  `json:"scratch_bytes,omitempty"`
	OverBound    bool   `json:"over_memory_bound,omitempty"` // not built because of --memory
	Blocked      string `json:"not_built_because,omitempty"` // why this version cannot build it
}

type planTotalsJSON struct {
	Tables     int     `json:"tables"`
	Built      int     `json:"built"`
	BuiltBytes int64   `json:"built_bytes"`
	ToBuild    int     `json:"to_build"`
	Seconds    float64 `json:"seconds"` // of the tables to build, on two cores
	Bytes      int64   `json:"bytes"`   // about the disk the tables to build take
	PeakMemory int64   `json:"peak_memory_bytes"`
	// NotBuildable counts the tables to build that this version cannot
	// (more than tablefile.MaxMen men); they are in the figures above.
	NotBuildable int `json:"not_buildable"`
}

func runTablesPlan(_ context.Context, cmd *cli.Command) error {
	sigs, err := namedOrAll(cmd, tablefile.PlanMen)
	if err != nil {
		return err
	}
	dir, err := tablesDir(cmd)
	if err != nil {
		return err
	}
	bound, err := memoryBound(cmd)
	if err != nil {
		return err
	}
	store := dtm.Open(dir, dtm.Options{MemoryBound: bound})
	defer store.Close()
	plan := planOf(dir, store.BuildPlan(sigs))
	w := cmd.Root().Writer
	if cmd.Bool("json") {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(plan)
	}
	writePlan(w, plan)
	return nil
}

// planOf turns the store's plan into what the command writes, with its
// totals.
func planOf(dir string, tables []dtm.PlannedTable) planJSON {
	p := planJSON{Dir: dir, Tables: []plannedJSON{}}
	for _, t := range tables {
		reads := []string{}
		for _, r := range t.Reads {
			reads = append(reads, r.String())
		}
		j := plannedJSON{Table: t.Material.String(), Men: t.Material.Men(), Positions: t.Positions, Reads: reads,
			Built: t.Built, Bytes: t.Bytes, Seconds: t.Time.Seconds(), Memory: t.Memory, OnDisk: t.SetsOnDisk, ValuesOnDisk: t.ValuesOnDisk, Scratch: t.ScratchBytes, OverBound: t.OverMemory, Blocked: t.Blocked}
		p.Tables = append(p.Tables, j)
		p.Total.Tables++
		if t.Built {
			p.Total.Built++
			p.Total.BuiltBytes += t.Bytes
			continue
		}
		p.Total.ToBuild++
		if t.Blocked != "" && !t.OverMemory {
			p.Total.NotBuildable++
		}
		p.Total.Seconds += j.Seconds
		p.Total.Bytes += t.Bytes
		p.Total.PeakMemory = max(p.Total.PeakMemory, t.Memory)
	}
	return p
}

// writePlan writes the plan as a table, then its totals.
func writePlan(w interface{ Write([]byte) (int, error) }, p planJSON) {
	fmt.Fprintf(w, "%4s %-8s %4s %15s %-10s %11s %8s %10s  %s\n", "#", "table", "men", "positions/side", "state", "disk", "time", "memory", "reads")
	for i, t := range p.Tables {
		state, disk, took := "to build", "~"+sizeText(t.Bytes), roughSeconds(t.Seconds)
		if t.Built {
			state, disk, took = "built", sizeText(t.Bytes), "-"
		} else if t.Blocked != "" {
			state, took = "not built", "~"+took
		}
		fmt.Fprintf(w, "%4d %-8s %4d %15d %-10s %11s %8s %10s  %s\n", i+1, t.Table, t.Men, t.Positions, state, disk, took,
			"~"+sizeText(t.Memory), strings.Join(t.Reads, " "))
	}
	fmt.Fprintf(w, "%d table(s) in %s: %d built (%s)", p.Total.Tables, p.Dir, p.Total.Built, sizeText(p.Total.BuiltBytes))
	if p.Total.ToBuild == 0 {
		fmt.Fprintln(w, ", nothing to build")
		return
	}
	fmt.Fprintf(w, ", %d to build: about %s on two cores, about %s of disk, at most about %s of memory at once\n",
		p.Total.ToBuild, roughSeconds(p.Total.Seconds), sizeText(p.Total.Bytes), sizeText(p.Total.PeakMemory))
	for _, t := range p.Tables {
		if t.OverBound && !t.Built {
			fmt.Fprintf(w, "not built: %s\n", t.Blocked)
		}
	}
	if p.Total.NotBuildable > 0 {
		fmt.Fprintf(w, "%d of them ('not built') this version cannot build (--json says why for each)\n", p.Total.NotBuildable)
	}
}

// roughSeconds writes a time estimate to the precision it has.
func roughSeconds(s float64) string {
	d := time.Duration(s * float64(time.Second))
	switch {
	case d < 10*time.Second:
		return fmt.Sprintf("%.1f s", s)
	case d < 2*time.Minute:
		return fmt.Sprintf("%.0f s", s)
	case d < 2*time.Hour:
		return fmt.Sprintf("%.0f min", d.Minutes())
	}
	return fmt.Sprintf("%.1f h", d.Hours())
}
