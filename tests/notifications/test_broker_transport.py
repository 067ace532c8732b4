"""The Redis broker publishes through one kept client (config/broker.py)."""

import pytest
import redis
from kombu import Connection, Exchange, Producer, Queue
from kombu.transport import memory

from config import broker

REDIS = "redis://127.0.0.1:6379/11"  # a database of its own, emptied by the test


def test_redis_urls_use_the_kept_client_transport_and_others_their_own():
    assert Connection("redis://127.0.0.1:6379/0").get_transport_cls() is broker.Transport
    assert Connection("rediss://127.0.0.1:6380/0").get_transport_cls() is broker.Transport
    assert issubclass(Connection("memory://").get_transport_cls(), memory.Transport)


@pytest.mark.services
def test_publishes_share_one_client_per_pool_and_every_message_arrives():
    plain = redis.Redis.from_url(REDIS)
    plain.flushdb()
    queue = Queue("kept-client-test", Exchange("kept-client-test"), "kept-client-test")
    with Connection(REDIS) as connection:
        channel = connection.channel()
        producer = Producer(channel)
        producer.publish(
            {"n": 1}, exchange=queue.exchange, routing_key="kept-client-test", declare=[queue]
        )
        first = channel._create_client()
        producer.publish({"n": 2}, exchange=queue.exchange, routing_key="kept-client-test")
        assert channel._create_client() is first
        # The consuming side's asynchronous clients are kombu's own, one per call.
        assert channel._create_client(asynchronous=True) is not channel._create_client(
            asynchronous=True
        )
        # A reconnect gives the channel a new pool: the kept client follows it.
        channel._pool = None
        replaced = channel._create_client()
        assert replaced is not first and replaced.connection_pool is channel.pool
        producer.publish({"n": 3}, exchange=queue.exchange, routing_key="kept-client-test")
        assert plain.llen("kept-client-test") == 3
        bodies = [queue(channel).get(no_ack=True).payload["n"] for _ in range(3)]
    assert bodies == [1, 2, 3]
    plain.flushdb()
