package serve

import (
	"bytes"
	"embed"
	"html/template"
	"io/fs"
	"net/http"
)

// assets are the page's files, embedded: the page loads nothing from the
// network.
//
//go:embed assets
var assets embed.FS

var pageTemplate = template.Must(template.ParseFS(assets, "assets/index.html"))

func assetHandler() http.Handler {
	sub, _ := fs.Sub(assets, "assets")
	h := http.FileServer(http.FS(sub))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=3600")
		h.ServeHTTP(w, r)
	})
}

func (s *Server) handlePage(w http.ResponseWriter, r *http.Request) {
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, struct{ Version string }{s.cfg.Version}); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b.Bytes())
}
