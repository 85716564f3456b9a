# frozen_string_literal: true

# The webhook handler: from a delivery (its raw body and headers) to the answer, whatever the server.
# Three rules, in this order:
#   1. verify the delivery's signature and timestamp, before anything reads the body;
#   2. dedupe on the event id: deliveries come at least once;
#   3. on a transaction event, fetch the transaction and update the order from it: the transaction
#      is the truth, the event only says that something changed.
# Then answer 2xx. A delivery that fails verification is refused with 4xx; when our own work fails,
# the event is not recorded as handled and the answer is 503: the service delivers it again.
require "json"
require_relative "verify"
require_relative "processed_events"

module Merchant
  SESSION_EVENTS = { "session-created" => "created", "session-completed" => "completed", "session-expired" => "expired" }.freeze
  TRANSACTION_EVENTS = %w[transaction-created transaction-completed transaction-failed transaction-settled].freeze

  # The status, and the problem document of a refusal.
  Answer = Struct.new(:status, :problem)

  class WebhookHandler
    # `secrets`: more than one while the secret rotates; a delivery signed with any of them is the service's.
    def initialize(payin:, orders:, secrets:, log: ->(line) { $stdout.puts(line) })
      @payin = payin
      @orders = orders
      @secrets = secrets
      @processed = ProcessedEvents.new
      @log = log
    end

    # docs:handler:start
    def handle(body, headers)
      begin
        Merchant.verify_webhook(body, headers, @secrets, now: Time.now.to_i)
      rescue WebhookVerificationError => e
        # Not a delivery the service made (forged, changed, replayed): refused, nothing handled.
        warn "webhook refused: #{e.reason}: #{e.message}"
        problem = e.to_problem
        return Answer.new(problem[:status], problem)
      end
      event = parse(body)
      return Answer.new(400, invalid_event("webhook_invalid_payload", "The body is not UTF-8 JSON.")) if event.nil?
      unless event.is_a?(Hash) && event["type"].is_a?(String)
        return Answer.new(400, invalid_event("webhook_invalid_event", "The body has no event type: it is not an event."))
      end

      unless SESSION_EVENTS.key?(event["type"]) || TRANSACTION_EVENTS.include?(event["type"])
        # Authentic, of a type added after this shop was written: acknowledged, or it comes again for days.
        @log.call("ignored: an event of type #{event["type"].inspect}, which this shop does not know")
        return Answer.new(204)
      end
      missing = missing_fields(event, Merchant.required_header(headers, "webhook-id"))
      # Signed, but this shop could never handle it: 4xx, as 5xx would ask for it again and again.
      return Answer.new(400, invalid_event("webhook_invalid_event", "The #{event["type"]} event lacks #{missing}.")) if missing

      return Answer.new(204) if @processed.include?(event["id"]) # a redelivery of an event already handled

      begin
        process(event)
      rescue StandardError => e
        # Our own failure (the service unreachable, a database down): not recorded, so the redelivery does the work.
        warn "#{event["type"]} #{event["id"]} not handled, the service will deliver it again: #{e.message}"
        return Answer.new(503, { type: "about:blank", title: "Service Unavailable", status: 503, detail: "Not handled; deliver it again." })
      end
      @processed.add(event["id"]) # only once processing succeeded
      Answer.new(204)
    end
    # docs:handler:end

    private

    def process(event)
      data = event["data"]
      if TRANSACTION_EVENTS.include?(event["type"])
        transaction = @payin.get_transaction(data["transaction_id"])
        change = @orders.apply_transaction(transaction) # the transaction is the truth, not the event
        why = "#{event["type"]}; #{transaction["id"]} is #{transaction["status"]}"
        why += ": #{transaction["failure_reason"]}" if transaction["failure_reason"]
      else
        change = @orders.apply_session(data, SESSION_EVENTS.fetch(event["type"]))
        why = event["type"]
      end
      @log.call("#{change} (#{why})") if change
    end

    # The event, or nil when the body is not UTF-8 JSON.
    def parse(body)
      text = body.dup.force_encoding(Encoding::UTF_8)
      text.valid_encoding? ? JSON.parse(text) : nil
    rescue JSON::ParserError
      nil
    end

    # What a known event lacks of what handling it needs (its id is the webhook-id, the ids in its data), or nil.
    def missing_fields(event, webhook_id)
      return "an id equal to the webhook-id header" unless event["id"] == webhook_id

      data = event["data"]
      return "its data" unless data.is_a?(Hash)

      ids = TRANSACTION_EVENTS.include?(event["type"]) ? %w[session_id transaction_id] : %w[session_id]
      absent = ids.reject { |field| data[field].is_a?(String) && !data[field].empty? }
      absent += %w[amount currency].select { |field| data[field].nil? }
      absent << "order_id" if data.key?("order_id") && !data["order_id"].is_a?(String)
      absent.empty? ? nil : "data.#{absent.join(", data.")}"
    end

    def invalid_event(code, detail)
      { type: PROBLEM_TYPE_BASE + code, title: "Invalid webhook event", status: 400, detail: detail, code: code }
    end
  end
end
