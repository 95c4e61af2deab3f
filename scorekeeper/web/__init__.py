"""The pages, forms and API: the blueprints, the phone's access, the page cache, the translations.
``app.create_app`` puts them together."""
