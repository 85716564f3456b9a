# frozen_string_literal: true

# The Standard Webhooks verifier the handler calls, and that ./verify-vectors runs over the vectors
# file. It checks the signature and the timestamp of a delivery, in the order the package's
# verifyWebhook does (so that a refusal names the same reason): the three headers, the timestamp's
# form, its distance from now, then the signatures. It parses nothing: the body is only trusted once
# this has passed.
require "openssl"

module Merchant
  TOLERANCE_SECONDS = 300
  PROBLEM_TYPE_BASE = "https://docs.payin.example.com/problems/"

  # A delivery refused, or a secret that is not one; `reason` says which check failed.
  class WebhookVerificationError < StandardError
    attr_reader :reason

    def initialize(reason, message)
      super(message)
      @reason = reason
    end

    # The answer, as the package's toProblem(): 401 for a delivery that is not the service's, 500 for our own bad secret.
    def to_problem
      status = reason == "invalid_secret" ? 500 : 401
      code = "webhook_#{reason}"
      title = status == 500 ? "Webhook receiver misconfigured" : "Webhook verification failed"
      { type: PROBLEM_TYPE_BASE + code, title: title, status: status, detail: message, code: code }
    end
  end

  module_function

  # docs:verify:start
  # Raises WebhookVerificationError unless one of `secrets` signed this delivery within `tolerance`
  # seconds of `now` (Unix seconds). `body` is the raw body, exactly as received.
  def verify_webhook(body, headers, secrets, now:, tolerance: TOLERANCE_SECONDS)
    keys = secret_keys(secrets)
    id = required_header(headers, "webhook-id")
    timestamp = required_header(headers, "webhook-timestamp")
    signatures = required_header(headers, "webhook-signature")

    # 1 to 12 ASCII digits; \A and \z, as ^ and $ match at any line.
    unless timestamp.match?(/\A[0-9]{1,12}\z/)
      raise WebhookVerificationError.new("invalid_timestamp", "The webhook-timestamp header is not a Unix time in seconds: #{timestamp.inspect}.")
    end
    skew = now - Integer(timestamp, 10)
    if skew > tolerance
      raise WebhookVerificationError.new("timestamp_too_old", "The delivery was signed #{skew} s ago, more than the #{tolerance} s tolerance.")
    end
    if skew < -tolerance
      raise WebhookVerificationError.new("timestamp_too_new", "The delivery is signed #{-skew} s in the future, more than #{tolerance} s.")
    end

    # The raw bytes as received: JSON parsed and generated again would not give the same ones.
    signed = "#{id}.#{timestamp}.".b + body.b
    expected = keys.map { |key| "v1,#{[OpenSSL::HMAC.digest("SHA256", key, signed)].pack("m0")}" }
    # Space-separated (/ /: a string " " would split on any whitespace); a header repeated by a proxy
    # arrives joined with ", ". Every candidate is compared with every secret's signature, in
    # constant time, so the time taken tells nothing about a match.
    matched = false
    signatures.split(/ /, -1).each do |candidate|
      candidate = candidate.delete_suffix(",")
      expected.each { |signature| matched = secure_compare(candidate, signature) | matched }
    end
    raise WebhookVerificationError.new("invalid_signature", "No v1 signature in webhook-signature matches the body under this secret.") unless matched
  end
  # docs:verify:end

  # Equal bytes, compared in a time that does not depend on where they differ. The length is no
  # secret (every v1 signature has the same), and fixed_length_secure_compare needs it equal.
  def secure_compare(given, expected)
    given.bytesize == expected.bytesize && OpenSSL.fixed_length_secure_compare(given.b, expected.b)
  end

  # The HMAC keys of the secrets; none at all would refuse every delivery without saying why.
  def secret_keys(secrets)
    raise WebhookVerificationError.new("invalid_secret", "The list of signing secrets is empty: give at least one.") if secrets.empty?

    secrets.map { |secret| secret_key(secret) }
  end

  # The HMAC key of a signing secret: whsec_ and base64 (strict: padded, the standard alphabet), the prefix optional.
  def secret_key(secret)
    encoded = secret.delete_prefix("whsec_")
    key = begin
      # m0: strict base64, which raises on anything else.
      encoded.match?(%r{\A[A-Za-z0-9+/]*={0,2}\z}) && (encoded.length % 4).zero? ? encoded.unpack1("m0") : ""
    rescue ArgumentError
      ""
    end
    raise WebhookVerificationError.new("invalid_secret", "The signing secret must be whsec_ followed by base64, as POST /webhooks returns it.") if key.empty?

    key
  end

  # The header's value, by its name in any case; present and not empty, or the delivery is refused.
  def required_header(headers, name)
    # A header sent twice is one list, as a proxy that joins them would send it.
    value = headers.select { |key, _| key.to_s.downcase == name }.values.flatten.join(", ")
    raise WebhookVerificationError.new("missing_header", "The #{name} header is missing.") if value.empty?

    value
  end
end
