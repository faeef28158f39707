import type { CatalogEntry } from '@mt/api-client';
import { useEffect, useState } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'wouter';
import { describeError } from '../../api/describe-error';
import { useSubmit } from '../../api/use-submit';
import { openApiDocument } from '../../api/openapi-document';
import { ScreenTitle } from '../../app/screen-title';
import { useApi } from '../../app/services';
import { useCategory } from '../../categories/categories';
import { CategoryNav } from '../../categories/category-nav';
import { entryNoun } from '../../categories/labels';
import { Field, FormError } from '../../ui/field';
import { Loading } from '../../ui/status';
import { NotFoundScreen } from '../not-found-screen';
import { entryBody, entryFormFields, type FormFieldSpec } from './entry-form-schema';

export function AddEntryScreen() {
  const { category: categoryId } = useParams<{ category: string }>();
  const category = useCategory(categoryId);
  const api = useApi();
  const [, navigate] = useLocation();
  const [params] = useSearchParams();
  const [fields, setFields] = useState<FormFieldSpec[] | undefined>();
  const [loadError, setLoadError] = useState<string | undefined>();
  const [values, setValues] = useState<Record<string, string>>(() => ({ title: params.get('title') ?? '' }));
  const [duplicateOf, setDuplicateOf] = useState<string | undefined>();

  useEffect(() => {
    let current = true;
    openApiDocument(api).then(
      (doc) => current && setFields(entryFormFields(doc, categoryId)),
      (error: unknown) => current && setLoadError(describeError(error).message),
    );
    return () => {
      current = false;
    };
  }, [api, categoryId]);

  const create = useSubmit(async (): Promise<CatalogEntry | undefined> => {
    setDuplicateOf(undefined);
    try {
      const created = await api.createEntry(categoryId, entryBody(fields ?? [], values) as { title: string });
      navigate(`/${categoryId}/${created.id}`);
      return created;
    } catch (error) {
      const described = describeError(error);
      if (described.status === 409 && described.existingId) setDuplicateOf(described.existingId);
      throw error;
    }
  }, { fields: (fields ?? []).map((field) => field.name) });

  if (!category) return <NotFoundScreen what="category" loadingCategories />;
  const noun = entryNoun(category);

  return (
    <section className="narrow-wide">
      <ScreenTitle title={`Add a ${noun}`}>Add a {noun}</ScreenTitle>
      <CategoryNav category={category} />
      {loadError && <FormError error={`The form could not be loaded: ${loadError}`} />}
      {!fields && !loadError && <Loading rows={5} label="Loading the form…" />}
      {fields && (
        <form
          className="form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void create.submit();
          }}
        >
          {duplicateOf ? (
            <div className="form-error" role="alert">
              <p>{create.error?.message ?? 'This entry already exists.'}</p>
              <p>
                <Link href={`/${category.id}/${duplicateOf}`}>Open the existing {noun}</Link> — you can add it to your list from there.
              </p>
            </div>
          ) : (
            <FormError error={create.error?.message} requestId={create.error?.requestId} />
          )}
          {fields.map((field) => (
            <Field
              key={field.name}
              label={`${field.label}${field.required ? '' : ' (optional)'}`}
              name={field.name}
              error={create.fields[field.name]}
              hint={field.kind === 'list' ? field.hint : undefined}
            >
              {(control) => {
                const common = {
                  ...control,
                  value: values[field.name] ?? '',
                  required: field.required,
                  onChange: (event: { target: { value: string } }) => setValues((v) => ({ ...v, [field.name]: event.target.value })),
                };
                if (field.kind === 'textarea') return <textarea {...common} rows={5} maxLength={field.maxLength} />;
                if (field.kind === 'integer') return <input {...common} type="number" inputMode="numeric" step={1} min={field.min} max={field.max} />;
                return <input {...common} type="text" maxLength={field.maxLength} />;
              }}
            </Field>
          ))}
          <button type="submit" className="button button--primary" disabled={create.pending}>
            {create.pending ? 'Adding…' : `Add the ${noun}`}
          </button>
        </form>
      )}
    </section>
  );
}
