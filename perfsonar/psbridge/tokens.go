package psbridge

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"longhaul/internal/settings"
)

// TokenSuffix ends the name of a host's token file in the tokens folder: NAME.token.
const TokenSuffix = ".token"

// Tokens tells who posted a result by its bearer token: the one token every HTTP archiver
// shares (identity shared, from token_file), and one token per host in a folder (NAME.token,
// identity prefix+NAME), re-read whenever the folder changes, so a host's file deleted is that
// host refused from its next post, and one added is taken, without a restart.
type Tokens struct {
	shared   []byte
	identity string // the shared token's
	dir      string
	prefix   string
	valid    func(identity string) bool

	mu    sync.Mutex
	hosts hostTokens
	mtime time.Time // the folder's, when hosts was read
	read  time.Time // when hosts was read
	err   error     // the last read's
}

// hostTokens is the folder's tokens by their SHA-256 digest: identity by digest, so that telling
// who posted is one lookup whatever the fleet's size. A scan comparing every token in constant
// time cost a post 3 % of the bridge's CPU at 250 hosts and grew with them (BenchmarkIdentify).
// The lookup's time depends only on the digest of what was presented, which tells nothing of any
// token (a digest's prefix matched gives no token's prefix).
type hostTokens map[[sha256.Size]byte]string

// NewTokens is the shared token (none when empty), known as identity, and the hosts' tokens in
// dir (none when empty), known as prefix+NAME where valid(prefix+NAME). The folder is read at
// once: an error (it cannot be read, a file in it is empty or badly named) is returned, as a
// config error is.
func NewTokens(shared []byte, identity, dir, prefix string, valid func(string) bool) (*Tokens, error) {
	t := &Tokens{shared: shared, identity: identity, dir: dir, prefix: prefix, valid: valid}
	if dir != "" {
		t.hosts, t.mtime, t.err = t.load()
		if t.err != nil {
			return nil, t.err
		}
		t.read = time.Now()
	}
	return t, nil
}

// Identify is the identity whose token bearer is, and whether there is one: a host's, else the
// shared token's (compared in constant time).
func (t *Tokens) Identify(bearer string) (string, bool) {
	got := []byte(strings.TrimSpace(bearer))
	if len(got) == 0 {
		return "", false
	}
	if t.dir != "" {
		if who, ok := t.current()[sha256.Sum256(got)]; ok {
			return who, true
		}
	}
	if len(t.shared) > 0 && subtle.ConstantTimeCompare(got, t.shared) == 1 {
		return t.identity, true
	}
	return "", false
}

// Err is why the folder could not be read last time (its hosts are then refused), or nil.
func (t *Tokens) Err() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

// current is the hosts' tokens, read again when the folder changed (a file added, deleted or
// renamed over changes it) or a minute passed since (a file rewritten in place does not); none
// while it cannot be read: a revoked host is never taken because the folder is unreadable.
func (t *Tokens) current() hostTokens {
	if t.dir == "" {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	now := time.Now()
	fi, err := os.Stat(t.dir)
	if err == nil && t.err == nil && fi.ModTime().Equal(t.mtime) && now.Sub(t.read) < rereadAfter {
		return t.hosts
	}
	t.hosts, t.mtime, t.err = t.load()
	t.read = now
	return t.hosts
}

// rereadAfter bounds how long a token rewritten in place (not renamed over) may go unseen.
const rereadAfter = time.Minute

// load reads every NAME.token of the folder, as prefix+NAME, with the folder's modification time.
// Two files holding one token are an error: that token could not say which of the two posted.
func (t *Tokens) load() (hostTokens, time.Time, error) {
	dir := t.dir
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("pscheduler_bridge.host_tokens_dir: %w", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("pscheduler_bridge.host_tokens_dir: %w", err)
	}
	hosts := hostTokens{}
	file := map[[sha256.Size]byte]string{} // digest → the file that holds it
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), TokenSuffix)
		if !ok || e.IsDir() {
			continue
		}
		if !t.valid(t.prefix + name) {
			return nil, time.Time{}, fmt.Errorf("pscheduler_bridge.host_tokens_dir: %s: %q is not a host's name (lower-case letters, digits, '.', '_', '-')", e.Name(), name)
		}
		tok, err := settings.Secret(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, time.Time{}, fmt.Errorf("pscheduler_bridge.host_tokens_dir: %w", err)
		}
		d := sha256.Sum256([]byte(tok))
		if other, dup := file[d]; dup {
			return nil, time.Time{}, fmt.Errorf("pscheduler_bridge.host_tokens_dir: %s and %s hold the same token: it could not tell which host posted (make each host its own: longhaul admin add-pscheduler-host)", other, e.Name())
		}
		hosts[d], file[d] = t.prefix+name, e.Name()
	}
	return hosts, fi.ModTime(), nil
}

// Hosts is how many hosts have a token of their own now.
func (t *Tokens) Hosts() int { return len(t.current()) }
