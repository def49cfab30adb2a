package psbridge

import (
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Outcome is what became of one delivered result.
type Outcome struct {
	Status  string `json:"status"`            // Accepted, Duplicate or DeadLettered
	Key     string `json:"key,omitempty"`     // the run's key, when the result had one
	Samples int    `json:"samples,omitempty"` // samples spooled
	Reason  string `json:"reason,omitempty"`  // why it was dead-lettered
}

// The outcomes.
const (
	Accepted     = "accepted"      // converted, its samples spooled
	Duplicate    = "duplicate"     // converted before: nothing added
	DeadLettered = "dead_lettered" // cannot be converted: kept whole, with the reason, on the dead-letter topic
)

// Acceptor takes one result identity delivered through input: converts it and writes its samples
// to the spool, or dead-letters it, and returns how to settle it. An error means nothing was kept
// (the spool failed) and the sender should try again.
type Acceptor func(body []byte, input, identity string) (Settle, error)

// Settle waits until what an Acceptor wrote is durable (an fsync it may share with others) and
// says what became of the result; an error means it is not known to be kept. It holds neither the
// result nor its samples: a post waits for it outside its conversion slot.
type Settle func() (Outcome, error)

// Identifier tells who sent a bearer token (Tokens).
type Identifier interface {
	Identify(bearer string) (identity string, ok bool)
}

// Refusals counts what the endpoint turned away before reading a result.
type Refusals interface {
	Unauthorized()
	TooLarge()
	Busy(queueFull bool) // no slot: the queue was full, or the wait ran out
	Throttled()
}

// Limits bound what the endpoint takes.
type Limits struct {
	MaxBody       int64    // one result's bytes (413 beyond)
	MaxConcurrent int      // results read and converted at once (admit.go)
	MaxWaiting    int      // posts that may wait for one of them (0: MaxConcurrent × AdmitQueuePerSlot)
	PerHost       HostRate // each host's own token (ratelimit.go)
	Shared        string   // the shared token's identity, which PerHost does not bound
}

// notKept begins the 503's text: the result is not known to be kept (the spool refused it or its
// fsync failed), and the archiver's retry policy sends it again.
const notKept = "not kept, try again: "

// InputHTTP names results that came through the HTTP endpoint (dead letters and health say it).
const InputHTTP = "http"

// Handler is the endpoint pScheduler's HTTP archiver posts (or puts) results to. It wants a
// token as "Authorization: Bearer TOKEN", which tells who sent the result (tokens), and answers:
//   - 200 with the Outcome as JSON once the result is kept: spooled, a duplicate, or
//     dead-lettered (a result that cannot be converted is not worth a retry);
//   - 401 without the right token, 413 for a body over maxBody, 405 for another method;
//   - 429 with Retry-After when a host's own token posts faster than lim.PerHost;
//   - while maxConcurrent results are being read and converted, a post waits for a slot (up to
//     AdmitWait, with at most lim.MaxWaiting waiting: admit.go), then 429 with
//     Retry-After: what the bridge holds in memory is at most maxConcurrent results and their
//     samples, whoever posts. A post gives its slot back once its result is written, before
//     the fsync that makes it durable, so the slots convert while the disk syncs and one
//     fsync settles every post written meanwhile;
//   - 503 when the spool could not take it: the archiver's retry policy sends it again.
func Handler(path string, tokens Identifier, lim Limits, accept Acceptor, refused Refusals) http.Handler {
	return handler(path, tokens, lim.MaxBody, newGate(lim.MaxConcurrent, lim.MaxWaiting, AdmitWait),
		newRateLimiter(lim.PerHost, lim.Shared, time.Now), accept, refused)
}

func handler(path string, tokens Identifier, maxBody int64, slots *gate, rate *rateLimiter, accept Acceptor, refused Refusals) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost && r.Method != http.MethodPut {
			w.Header().Set("Allow", "POST, PUT")
			http.Error(w, "POST or PUT a pScheduler result", http.StatusMethodNotAllowed)
			return
		}
		identity, ok := identify(r, tokens)
		if !ok {
			refused.Unauthorized()
			w.Header().Set("WWW-Authenticate", `Bearer realm="longhaul pscheduler bridge"`)
			http.Error(w, "missing or wrong token: send Authorization: Bearer TOKEN (the archiver's _headers)", http.StatusUnauthorized)
			return
		}
		if wait, ok := rate.take(identity); !ok {
			refused.Throttled()
			w.Header().Set("Retry-After", itoa(int64(math.Ceil(wait.Seconds()))))
			http.Error(w, identity+" posts faster than "+strconv.FormatFloat(rate.rate.PerSecond, 'g', -1, 64)+
				" results a second, "+itoa(int64(rate.rate.Burst))+" at once (pscheduler_bridge.host_rate, host_burst): try again", http.StatusTooManyRequests)
			return
		}
		release, queueFull := slots.enter(r.Context())
		if release == nil {
			refused.Busy(queueFull)
			w.Header().Set("Retry-After", "5")
			http.Error(w, itoa(int64(cap(slots.slots)))+" results are being converted (pscheduler_bridge.max_concurrent) and "+
				itoa(slots.maxWaiting)+" may wait "+slots.wait.String()+" for them: try again", http.StatusTooManyRequests)
			return
		}
		settle, status, why := takeOne(w, r, maxBody, accept, identity, refused, release)
		if settle == nil {
			http.Error(w, why, status)
			return
		}
		out, err := settle()
		if err != nil {
			http.Error(w, notKept+err.Error(), http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(out)
	})
	return mux
}

// takeOne reads one result and has accept take it inside the post's slot, which it gives back
// (release) as it returns: the settle to wait for, or the status and why it was not taken.
func takeOne(w http.ResponseWriter, r *http.Request, maxBody int64, accept Acceptor, identity string, refused Refusals, release func()) (Settle, int, string) {
	defer release()
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		refused.TooLarge()
		return nil, http.StatusRequestEntityTooLarge, "result larger than " + humanBytes(maxBody) + " (pscheduler_bridge.max_body)"
	case err != nil:
		return nil, http.StatusBadRequest, "reading the result: " + err.Error()
	}
	settle, err := accept(body, InputHTTP, identity)
	if err != nil {
		return nil, http.StatusServiceUnavailable, notKept + err.Error()
	}
	return settle, 0, ""
}

// identify is who the request's bearer token is.
func identify(r *http.Request, tokens Identifier) (string, bool) {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return "", false
	}
	return tokens.Identify(got)
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return itoa(n>>20) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return itoa(n>>10) + " KiB"
	}
	return itoa(n) + " bytes"
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
