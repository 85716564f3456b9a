# frozen_string_literal: true

module Merchant
  # The ids of the events handled, so that a redelivery is answered without being handled twice. In
  # memory; in a real shop, a table keyed by the event id (a unique key), written with the order's change.
  class ProcessedEvents
    def initialize
      @ids = {}
      # WEBrick answers each connection on a thread of its own.
      @lock = Mutex.new
    end

    def include?(event_id)
      @lock.synchronize { @ids.key?(event_id) }
    end

    def add(event_id)
      @lock.synchronize { @ids[event_id] = true }
    end
  end
end
