FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt

COPY . .
# staticfiles/ belongs to `app`: compose's `migrate` collects into it again, as a volume the proxy
# serves from.
RUN python manage.py collectstatic --noinput \
    && useradd --create-home app \
    && mkdir -p var/checkpoints var/record-key && chown -R app var staticfiles
USER app

EXPOSE 8000
# Several processes (WEB_CONCURRENCY, default 1) behind a proxy: docker-compose.yml, README
# "Scaling". Django's ASGI handler has no lifespan events.
CMD ["uvicorn", "config.asgi:application", "--host", "0.0.0.0", "--port", "8000", \
     "--lifespan", "off", "--proxy-headers", "--forwarded-allow-ips", "*", "--no-access-log"]
