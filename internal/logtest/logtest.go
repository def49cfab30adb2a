// Package logtest holds the log a test reads while the code under test writes it.
package logtest

import (
	"bytes"
	"strings"
	"sync"
)

// Buffer is a log written from the goroutines of the code under test and read by the test:
// an io.Writer for a logger, safe for concurrent use. The zero value is empty.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Count is how many times s was written so far.
func (b *Buffer) Count(s string) int { return strings.Count(b.String(), s) }
