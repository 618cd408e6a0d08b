package record

import "mateline.dev/mateline/pgn"

// PGNInfo is what a PGN game says besides its position and claim.
type PGNInfo struct {
	Game  int    `json:"game"` // its 1-based place in the file
	Event string `json:"event,omitempty"`
	Site  string `json:"site,omitempty"`
	White string `json:"white,omitempty"`
	Black string `json:"black,omitempty"`
	// ClaimFrom says where the claim was read: "tag White", "comment",
	// "main line".
	ClaimFrom string `json:"claim_from,omitempty"`
	// Tags are every tag pair, in input order, and Game the whole game,
	// for the PGN writer and for checking the author's line.
	Tags []pgn.Tag `json:"-"`
	Tree *pgn.Game `json:"-"`
}
