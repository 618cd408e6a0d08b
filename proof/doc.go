// Package proof checks mateline's proof certificates (docs/certificate.md)
// with the move generator of github.com/corentings/chess/v2. It imports
// neither mateline's board nor its solver, so that a bug there cannot hide
// itself in a certificate: what the solver proved is checked by code that
// shares nothing with it.
package proof
