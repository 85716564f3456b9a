// Runs the shop's verifier, webhook.Verify (the one its handler calls), over a file of test
// vectors: each case's headers, body, secrets and time, and the verdict expected. Prints
// "N passed, N failed" and a line per failure; exits 1 when any failed.
//
// Run it: ./verify-vectors FILE
package main

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"

	"payin-merchant/webhook"
)

type vectors struct {
	Cases []struct {
		ID        string            `json:"id"`
		Secrets   []string          `json:"secrets"`
		Headers   map[string]string `json:"headers"`
		Body      string            `json:"body_base64"`
		Now       int64             `json:"now"`
		Signature struct {
			Valid  bool   `json:"valid"`
			Reason string `json:"reason"`
		} `json:"signature"`
	} `json:"cases"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: ./verify-vectors FILE")
		os.Exit(2)
	}
	text, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var file vectors
	if err := json.Unmarshal(text, &file); err != nil {
		fmt.Fprintf(os.Stderr, "%s is not a vectors file: %v\n", os.Args[1], err)
		os.Exit(2)
	}

	passed, failed := 0, 0
	var failures []string
	for _, c := range file.Cases {
		headers := http.Header{}
		for name, value := range c.Headers {
			headers.Set(name, value)
		}
		body, err := base64.StdEncoding.DecodeString(c.Body)
		if err != nil {
			fmt.Fprintf(os.Stderr, "case %s: body_base64 is not base64\n", c.ID)
			os.Exit(2)
		}
		expected := verdict(c.Signature.Valid, c.Signature.Reason)
		actual := "valid"
		var refused *webhook.VerificationError
		if err := webhook.Verify(body, headers, c.Secrets, time.Unix(c.Now, 0)); errors.As(err, &refused) {
			actual = refused.Reason
		} else if err != nil {
			actual = err.Error()
		}
		if actual == expected {
			passed++
		} else {
			failed++
			failures = append(failures, fmt.Sprintf("%s: expected %s, got %s", c.ID, expected, actual))
		}
	}
	fmt.Printf("%d passed, %d failed\n", passed, failed)
	for _, failure := range failures {
		fmt.Println(failure)
	}
	if failed > 0 {
		os.Exit(1)
	}
}

func verdict(valid bool, reason string) string {
	if valid {
		return "valid"
	}
	return reason
}
