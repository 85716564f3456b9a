# frozen_string_literal: true

# The HTTP side of the shop, on WEBrick: POST /webhooks/payin to the handler, GET /orders, GET
# /thanks, 404 for anything else. WEBrick answers each connection on a thread of its own: a delivery
# whose fetch of the transaction hangs holds up no other. Whatever fails in one request is answered
# there (500 at worst), and the server goes on.
require "json"
require "webrick"

module Merchant
  MAX_BODY_BYTES = 1024 * 1024
  # Past the limit, what is still read (and dropped) before the connection closes, so that the sender
  # sees the 413 rather than a reset; past this too, the connection is closed on the rest.
  MAX_DRAINED_BYTES = 8 * 1024 * 1024

  # Every method on every path comes to `service` (AbstractServlet would answer 405 for the methods it has no do_ for).
  class MerchantServlet < WEBrick::HTTPServlet::AbstractServlet
    def initialize(server, orders, webhooks)
      super(server)
      @orders = orders
      # A lambda: the handler is made once the URL is registered, which gives the secret.
      @webhooks = webhooks
    end

    def service(request, response)
      route(request, response)
    rescue WEBrick::HTTPStatus::Status
      raise # WEBrick's own answers: a request it could not read (411 for a body of unknown length, …)
    rescue StandardError => e
      # This shop's bug: answered, logged, and the server goes on.
      warn "#{request.request_method} #{request.path} failed: #{e.class}: #{e.message}"
      text(response, 500, "Internal error\n")
    end

    private

    def route(request, response)
      method = request.request_method
      path = request.path
      if method == "POST" && path == "/webhooks/payin"
        on_webhook(request, response)
      elsif method == "GET" && path == "/orders"
        json(response, 200, @orders.list)
      elsif method == "GET" && path.start_with?("/orders/") && (order = @orders.get(WEBrick::HTTPUtils.unescape(path.delete_prefix("/orders/"))))
        json(response, 200, order)
      elsif method == "GET" && path == "/thanks"
        # The session's redirect_url: where the customer lands after paying.
        text(response, 200, "Thank you! Your payment is being confirmed.\n")
      else
        text(response, 404, "Not found\n")
      end
    end

    def on_webhook(request, response)
      body = read_body(request, response)
      return if body.nil?

      handler = @webhooks.call
      # Not registered yet: no secret to verify with.
      return json(response, 503, { type: "about:blank", title: "Service Unavailable", status: 503 }, "application/problem+json") if handler.nil?

      # The raw values, as UTF-8 text (the signer signed the UTF-8 of the id); a header sent twice as one list.
      headers = request.header.transform_values { |values| values.join(", ").dup.force_encoding(Encoding::UTF_8) }
      answer = handler.handle(body, headers)
      if answer.problem
        json(response, answer.status, answer.problem, "application/problem+json")
      else
        response.status = answer.status
      end
    end

    # The raw body, at most 1 MiB; nil once a refusal is answered.
    def read_body(request, response)
      # Not request.content_length, which raises without the header (a chunked body has none).
      if request["content-length"].to_s.match?(/\A[0-9]+\z/) && request["content-length"].to_i > MAX_BODY_BYTES
        # Read and dropped, up to MAX_DRAINED_BYTES, so that the sender sees the 413.
        drained = 0
        request.body do |chunk|
          drained += chunk.bytesize
          break if drained > MAX_DRAINED_BYTES
        end
        return refuse_large(response)
      end
      body = +"".b
      # In chunks: a chunked body, of no announced length, stops being read at the limit.
      request.body do |chunk|
        body << chunk
        break if body.bytesize > MAX_BODY_BYTES
      end
      body.bytesize > MAX_BODY_BYTES ? refuse_large(response) : body
    end

    def refuse_large(response)
      # What is left of the body is not read: the connection cannot carry another request.
      response.keep_alive = false
      text(response, 413, "The body is over #{MAX_BODY_BYTES} bytes.\n")
      nil
    end

    def json(response, status, body, content_type = "application/json")
      response.status = status
      response["Content-Type"] = content_type
      response.body = "#{JSON.pretty_generate(body)}\n"
    end

    def text(response, status, body)
      response.status = status
      response["Content-Type"] = "text/plain; charset=utf-8"
      response.body = body
    end
  end
end
