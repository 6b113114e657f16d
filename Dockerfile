FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt

COPY . .
RUN python manage.py collectstatic --noinput \
    && useradd --create-home app \
    && mkdir -p var/checkpoints var/record-key && chown -R app var
USER app

EXPOSE 8000
CMD ["daphne", "--bind", "0.0.0.0", "--port", "8000", "config.asgi:application"]
