package payin

import (
	"math/rand"
	"strconv"
	"strings"
	"time"
)

// The TypeScript client's defaults: two retries, the first after about 500 ms, each next one
// about twice as long, none longer than 10 s.
const (
	retries   = 2
	baseDelay = 500 * time.Millisecond
	maxDelay  = 10 * time.Second
)

// retryDelay is the wait before retry n (0 for the first): the answer's Retry-After in seconds
// when it has one, else half of base × 2ⁿ plus up to as much again at random (so that clients that
// failed together do not retry together); never more than maxDelay.
func init() {
	// Go 1.19's math/rand starts from the same seed in every process: the jitter would be the same.
	rand.Seed(time.Now().UnixNano())
}

func retryDelay(n int, retryAfter string) time.Duration {
	if seconds, err := strconv.Atoi(strings.TrimSpace(retryAfter)); err == nil && seconds >= 0 {
		return minDuration(time.Duration(seconds)*time.Second, maxDelay)
	}
	ceiling := minDuration(baseDelay<<n, maxDelay)
	return ceiling/2 + time.Duration(rand.Int63n(int64(ceiling)/2+1))
}

func minDuration(a, b time.Duration) time.Duration {
	if a < b {
		return a
	}
	return b
}
