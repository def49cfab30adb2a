package publish

import (
	"context"
	"time"
)

// wait blocks until a callback returns, more is appended (more != nil), a second passes or
// ctx ends.
func (p *Publisher) wait(ctx context.Context, more <-chan struct{}) {
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-p.settled:
	case <-more:
	case <-t.C:
	}
}

// waitRoom waits until want records of room are free or d passes, and returns the room.
func (p *Publisher) waitRoom(ctx context.Context, want int, d time.Duration) int {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		p.mu.Lock()
		room := p.opt.MaxInFlight - p.outstanding
		p.mu.Unlock()
		if room >= want {
			return room
		}
		select {
		case <-ctx.Done():
			return room
		case <-t.C:
			return room
		case <-p.settled:
		}
	}
}

// waitSettled blocks until no record is outstanding; false if ctx ended first.
func (p *Publisher) waitSettled(ctx context.Context) bool {
	for ctx.Err() == nil {
		p.mu.Lock()
		n := p.outstanding
		p.mu.Unlock()
		if n == 0 {
			return true
		}
		p.wait(ctx, nil)
	}
	return false
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
