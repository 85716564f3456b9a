// Package payin is a small client of the Payin Acceptance Service: JSON in and out, a bearer
// token, and retries that are safe, as the TypeScript package's client does them.
package payin

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Client calls the service at BaseURL with Token (on the sandbox, any token is an account).
type Client struct {
	BaseURL string
	Token   string
	// HTTP makes each attempt; its Timeout bounds one attempt, not the call with its retries.
	HTTP *http.Client
}

// NewClient is a client whose attempts each time out after 30 s.
func NewClient(baseURL, token string) *Client {
	return &Client{BaseURL: strings.TrimRight(baseURL, "/"), Token: token, HTTP: &http.Client{Timeout: 30 * time.Second}}
}

// Problem is the service's answer to a request it did not do (RFC 9457): branch on Code.
type Problem struct {
	Status int    `json:"status"`
	Code   string `json:"code"`
	Title  string `json:"title"`
	Detail string `json:"detail"`
	// With Code counterparty_exists: the counterparty that has this email and phone number.
	ExistingID string `json:"existing_id"`
}

func (p *Problem) Error() string { return fmt.Sprintf("%d %s: %s", p.Status, p.Code, p.Detail) }

// call sends a request (a POST with a new Idempotency-Key, the same on each of its attempts, so
// that a create whose answer was lost is answered again rather than made twice), retrying what
// may succeed later, and decodes a 2xx answer into out. Any other answer is a *Problem.
func (c *Client) call(ctx context.Context, method, path string, body, out any) error {
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return err
		}
	}
	headers := http.Header{"Authorization": {"Bearer " + c.Token}, "Accept": {"application/json"}}
	if payload != nil {
		headers.Set("Content-Type", "application/json")
	}
	if method == http.MethodPost {
		headers.Set("Idempotency-Key", newUUID())
	}
	status, answer, err := c.withRetries(ctx, method, c.BaseURL+path, headers, payload)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	if status < 200 || status > 299 {
		problem := &Problem{Status: status}
		if json.Unmarshal(answer, problem) != nil || problem.Code == "" {
			problem.Code, problem.Detail = "unexpected_answer", strings.TrimSpace(string(answer))
		}
		problem.Status = status
		return problem
	}
	if err := json.Unmarshal(answer, out); err != nil {
		return fmt.Errorf("%s %s: the answer is not the JSON expected: %w", method, path, err)
	}
	return nil
}

// withRetries makes up to 1 + retries attempts: again after a lost connection, a timeout, a 429
// or a 503, never after another answer, which says the request itself is wrong. It returns the
// last attempt's status and body, or its error.
func (c *Client) withRetries(ctx context.Context, method, url string, headers http.Header, payload []byte) (int, []byte, error) {
	for attempt := 0; ; attempt++ {
		request, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(payload))
		if err != nil {
			return 0, nil, err
		}
		request.Header = headers.Clone()
		status, answer, retryAfter, err := c.attempt(request)
		retried := err != nil || status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable
		// The caller's own cancellation (a delivery that ended) is not the network's fault.
		if !retried || attempt == retries || ctx.Err() != nil {
			return status, answer, err
		}
		select {
		case <-time.After(retryDelay(attempt, retryAfter)):
		case <-ctx.Done():
			return 0, nil, ctx.Err()
		}
	}
}

// attempt sends one request and reads its whole answer (the attempt's timeout covers both),
// with its Retry-After header.
func (c *Client) attempt(request *http.Request) (status int, answer []byte, retryAfter string, err error) {
	response, err := c.HTTP.Do(request)
	if err != nil {
		return 0, nil, "", err
	}
	defer response.Body.Close()
	answer, err = io.ReadAll(response.Body)
	if err != nil {
		return 0, nil, "", errors.New("the answer was cut off: " + err.Error())
	}
	return response.StatusCode, answer, response.Header.Get("Retry-After"), nil
}

// newUUID is a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // the system has no randomness left: nothing can be signed or keyed safely
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
