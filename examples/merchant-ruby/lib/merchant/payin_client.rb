# frozen_string_literal: true

# The Payin API client, on Net::HTTP: the four calls the shop makes, each retried as the package's
# client retries. A lost connection, a timeout (30 s an attempt), 429 and 503 are tried again, twice,
# after an exponential backoff with jitter (from 500 ms, at most 10 s) or the answer's Retry-After.
# Every POST carries one Idempotency-Key on all its attempts: a create whose answer was lost is
# answered again, not made twice.
require "json"
require "net/http"
require "securerandom"
require "uri"

module Merchant
  # The service refused the request (`status` and its problem document), or could not be reached (`status` is nil).
  class PayinError < StandardError
    attr_reader :status, :problem

    def initialize(message, status = nil, problem = {})
      super(message)
      @status = status
      @problem = problem
    end
  end

  class PayinClient
    RETRIES = 2
    BASE_DELAY_SECONDS = 0.5
    MAX_DELAY_SECONDS = 10.0
    TIMEOUT_SECONDS = 30
    RETRIED_STATUSES = [429, 503].freeze
    # What a request that got no answer raises: refused, reset, closed early, or slower than the timeout.
    NO_ANSWER = [IOError, SystemCallError, SocketError, Timeout::Error, Net::HTTPBadResponse, Net::ProtocolError, OpenSSL::SSL::SSLError].freeze

    def initialize(base_url, token)
      @base_url = base_url.chomp("/")
      @token = token
    end

    # The customer as a PAYIN counterparty; its id, or the existing one's for a returning customer (409).
    def create_counterparty(customer)
      request("POST", "/api/v1/send/counterparties/", { type: "INDIVIDUAL", payment_rail: "PAYIN", **customer }).fetch("id")
    rescue PayinError => e
      raise unless e.status == 409 && e.problem["code"] == "counterparty_exists"

      e.problem.fetch("existing_id")
    end

    def create_payment_session(session, idempotency_key: nil)
      request("POST", "/api/v1/earn/payment-sessions/", session, idempotency_key: idempotency_key)
    end

    def get_transaction(transaction_id)
      request("GET", "/api/v1/earn/transactions/#{URI.encode_www_form_component(transaction_id)}/")
    end

    # Registers the URL events go to (registering again replaces it); the answer's signing_secret signs them.
    def register_webhook(url)
      request("POST", "/webhooks", { url: url })
    end

    private

    def request(method, path, body = nil, idempotency_key: nil)
      uri = URI(@base_url + path)
      headers = { "Authorization" => "Bearer #{@token}", "Accept" => "application/json" }
      headers["Content-Type"] = "application/json" if body
      # Made once, before the first attempt: every retry is the same request.
      headers["Idempotency-Key"] = idempotency_key || SecureRandom.uuid if method == "POST"
      (0..RETRIES).each do |attempt|
        begin
          response = send_once(uri, method, headers, body)
        rescue *NO_ANSWER => e
          raise PayinError, "#{method} #{path}: #{e.class}: #{e.message}" if attempt == RETRIES

          sleep(retry_delay(attempt, nil))
          next
        end
        status = response.code.to_i
        answer = parse(response.body)
        if status < 400
          raise PayinError.new("#{method} #{path}: #{status}, and not a JSON object", status) unless answer.is_a?(Hash)

          return answer
        end
        if !RETRIED_STATUSES.include?(status) || attempt == RETRIES
          problem = answer.is_a?(Hash) ? answer : {}
          raise PayinError.new("#{method} #{path}: #{status} #{problem["code"]}".rstrip, status, problem)
        end
        sleep(retry_delay(attempt, response["Retry-After"]))
      end
    end

    def send_once(uri, method, headers, body)
      # max_retries 0: Net::HTTP would otherwise retry an idempotent request once by itself.
      options = { use_ssl: uri.scheme == "https", open_timeout: TIMEOUT_SECONDS, read_timeout: TIMEOUT_SECONDS, write_timeout: TIMEOUT_SECONDS, max_retries: 0 }
      Net::HTTP.start(uri.host, uri.port, **options) do |http|
        request = (method == "POST" ? Net::HTTP::Post : Net::HTTP::Get).new(uri, headers)
        request.body = JSON.generate(body) if body
        http.request(request)
      end
    end

    def parse(text)
      JSON.parse(text.to_s)
    rescue JSON::ParserError
      nil
    end

    # Retry-After's seconds when the service gave them, else half of base x 2^attempt plus up to as much again at random; at most 10 s.
    def retry_delay(attempt, retry_after)
      return [MAX_DELAY_SECONDS, retry_after.strip.to_f].min if retry_after&.strip&.match?(/\A[0-9]+\z/)

      ceiling = [MAX_DELAY_SECONDS, BASE_DELAY_SECONDS * (2**attempt)].min
      # Equal jitter: clients that failed together do not all retry together.
      (ceiling / 2) + (rand * ceiling / 2)
    end
  end
end
