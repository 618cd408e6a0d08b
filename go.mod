module mateline.dev/mateline

go 1.26.8

require (
	github.com/chromedp/chromedp v0.23.0
	github.com/corentings/chess/v2 v2.5.1
	github.com/klauspost/compress v1.18.2
	github.com/schollz/progressbar/v3 v3.17.1
	github.com/urfave/cli/v3 v3.14.0
	golang.org/x/net v0.47.0
)

require (
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b // indirect
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	golang.org/x/sys v0.38.0 // indirect
	golang.org/x/term v0.37.0 // indirect
)
