"""The classroom: a teacher leads every student's screen and asks the class a question.

- `codes`: class codes, teacher keys and seats (made, checked, compared in constant time);
- `store`: the classes, seats and votes in SQL (SQLite by default, PostgreSQL when configured);
- `rounds`: a class question, its votes and what two rounds say (pure);
- `follow` and `panel`: the Streamlit side (membership, following the teacher, the sidebar box
  and the question on the page).

It never imports a page: the frame hands it a page's state as the address's parameters, and a
page's predict-then-reveal puzzle hands it the question (attention_ui.kit.teaching.predict_view).
"""
