module mateline.dev/mateline

go 1.26.8

require (
	github.com/corentings/chess/v2 v2.5.1
	github.com/urfave/cli/v3 v3.14.0
)
