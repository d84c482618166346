package githubtest

import (
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
)

// ChaosKind is a fault as GitHub and the network between produce it. The
// ones "after apply" change the fake's state first, as github.com does
// when it applies a request whose answer is then lost or spoiled: a client
// that takes a lost answer for a request never made repeats it.
type ChaosKind string

const (
	// Drop closes the connection before the request is applied.
	Drop ChaosKind = "drop"
	// DropAfterApply applies the request, then closes the connection
	// without an answer.
	DropAfterApply ChaosKind = "drop-after-apply"
	// Stall holds the request, unapplied, until the client gives up.
	Stall ChaosKind = "stall"
	// StallAfterApply applies the request, then holds the answer until
	// the client gives up.
	StallAfterApply ChaosKind = "stall-after-apply"
	// ServerError answers 500 without applying the request.
	ServerError ChaosKind = "5xx"
	// ServerErrorAfterApply applies the request, then answers 502, as a
	// proxy in front of GitHub does when the answer times out behind it.
	ServerErrorAfterApply ChaosKind = "5xx-after-apply"
	// Malformed applies the request and answers its status with the first
	// half of its body: JSON cut short.
	Malformed ChaosKind = "malformed"
	// SecondaryLimit refuses the request, unapplied, as past a secondary
	// rate limit: 403, Retry-After: 60.
	SecondaryLimit ChaosKind = "secondary-limit"
)

// ChaosKinds lists every kind.
var ChaosKinds = []ChaosKind{Drop, DropAfterApply, Stall, StallAfterApply, ServerError, ServerErrorAfterApply, Malformed, SecondaryLimit}

// Chaos draws faults at random for every request the fake serves: GET,
// POST, PATCH and DELETE of every route, GraphQL included.
type Chaos struct {
	// Seed makes the draws repeatable: the same requests in the same
	// order get the same faults.
	Seed uint64
	// Rate is the share of requests that get a fault (0 turns chaos off).
	Rate float64
	// Kinds are drawn from uniformly; nil means ChaosKinds.
	Kinds []ChaosKind
}

// ChaosEvent is one fault chaos injected.
type ChaosEvent struct {
	Method, Path string
	Kind         ChaosKind
}

type chaos struct {
	Chaos
	rnd    *rand.Rand
	events []ChaosEvent
}

// SetChaos starts drawing faults as c says; a zero Rate stops.
func (s *Server) SetChaos(c Chaos) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.Rate <= 0 {
		s.chaos = nil
		return
	}
	if len(c.Kinds) == 0 {
		c.Kinds = ChaosKinds
	}
	s.chaos = &chaos{Chaos: c, rnd: rand.New(rand.NewPCG(c.Seed, c.Seed^0x9e3779b97f4a7c15))}
}

// ChaosEvents returns the faults chaos injected so far.
func (s *Server) ChaosEvents() []ChaosEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.chaos == nil {
		return nil
	}
	return append([]ChaosEvent(nil), s.chaos.events...)
}

// draw picks the fault of one request, or "".
func (s *Server) draw(method, path string) ChaosKind {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.chaos
	if c == nil || c.rnd.Float64() >= c.Rate {
		return ""
	}
	k := c.Kinds[c.rnd.IntN(len(c.Kinds))]
	c.events = append(c.events, ChaosEvent{Method: method, Path: path, Kind: k})
	return k
}

// serveChaos serves r through mux, spoiled by the fault chaos draws.
func (s *Server) serveChaos(w http.ResponseWriter, r *http.Request, mux http.Handler) {
	kind := s.draw(r.Method, r.URL.Path)
	switch kind {
	case "":
		mux.ServeHTTP(w, r)
		return
	case Drop:
		s.serveFault(w, r, &Fault{Reset: true})
		return
	case Stall:
		s.serveFault(w, r, &Fault{Hang: true})
		return
	case ServerError:
		writeJSON(w, http.StatusInternalServerError, map[string]string{"message": "Server Error"})
		return
	case SecondaryLimit:
		writeSecondaryLimit(w)
		return
	}
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, r)
	switch kind {
	case DropAfterApply:
		s.serveFault(w, r, &Fault{Reset: true})
	case StallAfterApply:
		s.serveFault(w, r, &Fault{Hang: true})
	case ServerErrorAfterApply:
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		w.Write([]byte("<html><body><h1>502 Bad Gateway</h1></body></html>"))
	case Malformed:
		body := rec.Body.String()
		if body == "" {
			body = "<html>"
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		w.Write([]byte(strings.TrimSpace(body)[:len(strings.TrimSpace(body))/2]))
	}
}
